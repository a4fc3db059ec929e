import { audienceRequestByMode, csvFileSchema, searchadsAudienceFields, searchadsAudienceStartedSchema } from '../../shared/schemas/audiences.ts';
import { uploadIdSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** multipart/form-data: the fields (`consent` as JSON text) and the file */
export const createSearchadsCsvAudienceRequest = audienceRequestByMode(
  { ...searchadsAudienceFields, common: { ...searchadsAudienceFields.common, csvFile: csvFileSchema('csvFile') } },
  false,
);

/** application/json: the same fields and the uploadId of a file sent with create_upload */
export const createSearchadsAudienceFromUploadRequest = audienceRequestByMode(
  { ...searchadsAudienceFields, common: { ...searchadsAudienceFields.common, uploadId: uploadIdSchema } },
  true,
);

export const SEARCHADS_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'audienceId', 'consent'] as const;

export const searchadsAudienceStartedResult = searchadsAudienceStartedSchema;
