import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { getReportRequest } from '../../shared/schemas/reports.ts';
import { getReport } from '../use-cases/reports/get-report.ts';
import { declaration } from './declaration.ts';

/** POST /reports/get_report (docs/reports.md): one page of a report by level and breakdown. */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: getReportRequest,
  run: ({ input, tenantId, user, context }) => getReport(tenantId, user, input, context),
});
