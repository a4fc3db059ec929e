import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { createSearchadsAudienceFromUploadRequest, createSearchadsCsvAudienceRequest, searchadsAudienceStartedResult } from './schema.ts';

const consent = { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' };

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['SCOPE_MISSING'],
  summary: 'Create or modify a search-ads Customer Match list',
  description:
    'A CSV of contacts into a Google Customer Match list through Google’s Data Manager API, by a job: normalised and SHA-256-hashed by Google’s rules, sent in requests of at most 10,000 members, each request followed to its end. Modes: create (a new list), append, remove, replace (everything added, then what was there before removed: the list never empties). `consent` is the advertiser’s statement for the list’s people; calling the operation also states that the advertiser accepted Google’s Customer Match terms. Either multipart/form-data with `csvFile` (and `consent` as JSON text), or JSON with the `uploadId` of a file of any size sent with /uploads/create_upload. The answer comes at once: /jobs/get_job follows the job to `{received, invalid, matchRateRange}`, and `audience_job.succeeded` or `audience_job.failed` is sent to your webhook. A connection without the Data Manager scope answers SCOPE_MISSING.',
  tag: 'Audiences',
  request: createSearchadsCsvAudienceRequest,
  result: searchadsAudienceStartedResult,
  fileField: 'csvFile',
  fromUpload: {
    request: createSearchadsAudienceFromUploadRequest,
    requestExample: { userId: 'demo-user', audienceName: 'Newsletter subscribers', mode: 'create', consent, uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f' },
  },
  requestExample: {
    userId: 'demo-user',
    audienceName: 'Newsletter subscribers',
    mode: 'create',
    consent, // in a multipart form, an object part is sent as its JSON text (OpenAPI's default encoding)
    csvFile: 'email,phone,country\nmary@example.com,+1 555 987 6543,US\n',
  },
  resultExample: { audienceId: 'aud_5f0c3a1e9b7d4c2a8e6f1b3d', jobId: 'job_7d3e2c1b0a9f8e7d6c5b4a3f2e1d0c9b', status: 'queued' },
};
