import { defineOperation } from '../../shared/http/operation.ts';
import { exportReportRequest } from '../../shared/schemas/reports.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { startExport } from '../use-cases/reports/start-export.ts';
import { declaration } from './declaration.ts';

/** POST /reports/export_report (docs/reports.md, "Exports"): 202, the export queued as a job. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: exportReportRequest,
  run: ({ input, tenantId, user, audit }) => startExport({ tenantId, user, audit }, input),
});
