import type { AuditUnit } from '../../../shared/core/audit.ts';
import { PlatformNotConnected } from '../../../shared/core/errors.ts';
import type { ExportQuery } from '../../../shared/schemas/reports.ts';
import type { User } from '../../../shared/store/users.ts';
import { newJobId, startJob } from '../jobs/start-job.ts';
import { checkSupport } from './get-report.ts';

/**
 * An export checked as a page is (a level or breakdown the platform lacks, before anything is queued),
 * then queued as a `report_export` job whose file has its own key under `exports/` (the bucket deletes
 * it after 7 days).
 */
export function startExport(call: { tenantId: string; user: User; audit: AuditUnit }, query: ExportQuery) {
  checkSupport(query);
  if (!call.user.connections[query.platform]) throw new PlatformNotConnected(query.platform);
  const jobId = newJobId();
  const objectKey = `exports/${call.tenantId}/${jobId}.${query.format}.gz`;
  return startJob(call, { type: 'report_export', request: { ...query, objectKey }, checkpoint: {} }, jobId);
}
