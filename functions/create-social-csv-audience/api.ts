import * as z from 'zod';
import { createSocialAudienceFromUploadRequest, createSocialCsvAudienceRequest, socialAudienceResultSchema } from './schema.ts';
import { jobStatusSchema } from '../../shared/schemas/uploads.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Create or modify a social contact-list audience (operation 7)',
  description:
    'A CSV of contacts, normalised, SHA-256-hashed and sent in batches of 10,000 in one upload session. Modes: create, append, replace, remove. Either multipart/form-data with the file (at most 4 MB; the answer comes when every batch has landed), or JSON with the `uploadId` of a file of any size sent with /uploads/create_upload: the audience is created at once (mode create), the answer carries `jobId` and `status: "running"`, and /jobs/get_job follows the job to the platform’s final counts (`audience_job.succeeded` or `audience_job.failed` is sent to your webhook).',
  tag: 'Audiences',
  request: createSocialCsvAudienceRequest,
  result: socialAudienceResultSchema.extend({
    jobId: z.string().optional().describe('With an uploadId: the job that sends the rows.'),
    status: jobStatusSchema
      .optional()
      .describe('The job as it is now: `running` for a new one; a start of an upload whose job already began answers that job, which may have ended.'),
  }),
  fileField: 'csvFile',
  fromUpload: {
    request: createSocialAudienceFromUploadRequest,
    requestExample: { userId: 'demo-user', audienceName: 'Newsletter subscribers', mode: 'create', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f' },
  },
  requestExample: { userId: 'demo-user', audienceName: 'Newsletter subscribers', mode: 'create', csvFile: 'email,phone\nmary@example.com,+1 555 987 6543\n' },
  resultExample: {
    audienceId: '120210555000010000',
    audienceName: 'Newsletter subscribers',
    invalid_entry_samples: {},
    num_invalid_entries: 0,
    num_received: 10,
    session_id: '1795347041159573',
  },
};
