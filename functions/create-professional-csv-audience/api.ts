import * as z from 'zod';
import { createProfessionalAudienceFromUploadRequest, createProfessionalCsvAudienceRequest } from './schema.ts';
import { jobStartedSchema } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Create a professional-network contact-list audience (operation 8)',
  description:
    'A contact or company list CSV in the platform’s template. `csvFileId` is the uploaded file’s media URN. Either multipart/form-data with the file (at most 4 MB), or JSON with the `uploadId` of a file sent with /uploads/create_upload: the answer is `{jobId, status}` at once, and the job’s result carries `audience.csvFileId`.',
  tag: 'Audiences',
  request: createProfessionalCsvAudienceRequest,
  result: z.union([z.object({ audience: z.object({ csvFileId: z.string() }), warnings: z.array(z.string()).optional() }), jobStartedSchema]),
  fileField: 'csv',
  fromUpload: {
    request: createProfessionalAudienceFromUploadRequest,
    requestExample: { userId: 'demo-user', type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f' },
  },
  requestExample: {
    userId: 'demo-user',
    type: 'USER_LIST_UPLOAD',
    audienceName: 'Webinar attendees',
    csv: 'email,firstname,lastname\navery@example.com,Avery,Lindqvist\n',
  },
  resultExample: { audience: { csvFileId: 'urn:li:media:/AAYAAgQFakeListUploadMediaToken0000000000000001.csv' } },
};
