import { z } from 'zod';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { day } from '../../shared/schemas/example-dates.ts';
import { exportReportRequest } from '../../shared/schemas/reports.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Export a report as a file',
  description:
    'The report get_report gives, of any size, as a gzipped csv or jsonl file: 202 with a `report_export` job (get_job follows it). On the social platform the rows come from an asynchronous report run; the file is streamed into storage, and the job ends with `result.url` (a link good for 24 hours), `rows`, `bytes` and `expiresAt`, and the `report.ready` webhook. Files are deleted 7 days after they are made. A level or breakdown the platform lacks is 400 before anything is queued.',
  tag: 'Reports',
  request: exportReportRequest,
  result: z.object({ jobId: z.string(), status: z.literal('queued') }),
  requestExample: { userId: 'demo-user', platform: 'social', level: 'ad', startDate: day(-30), endDate: day(-1), breakdown: 'placement', format: 'csv' },
  resultExample: { jobId: 'job_0f1e2d3c4b5a69788796a5b4c3d2e1f0', status: 'queued' },
};
