import * as z from 'zod';
import { getJobRequest, jobViewSchema } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get a job',
  description:
    'The status and live progress of any job: a contact list sent to an audience (operations 7 and 8 with an uploadId), a video into an ad account (`upload_ad_media`), a whole campaign launch (`create_campaign`). `type` says which; `result` is the operation’s own result once it succeeded; `error` says why it failed (a launch adds `rolledBack` and `orphans`). Another tenant’s job is 404 NOT_FOUND, as an unknown one.',
  tag: 'Jobs',
  request: getJobRequest,
  result: z.object({ job: jobViewSchema }),
  requestExample: { jobId: 'job_8d3f1c2b4a6e9d0f7c5b3a1e2d4f6a8c' },
  resultExample: {
    job: {
      jobId: 'job_8d3f1c2b4a6e9d0f7c5b3a1e2d4f6a8c',
      type: 'social_audience',
      userId: 'demo-user',
      status: 'running',
      progress: { bytesRead: 17_000_000, totalBytes: 17_000_000, rowsRead: 200_000, rowsSent: 120_000, batchesSent: 12 },
      createdAt: `${day(0)}T10:00:00.000Z`,
      updatedAt: `${day(0)}T10:00:41.000Z`,
    },
  },
};
