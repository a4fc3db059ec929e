import { audienceRequestByMode, csvFileSchema, socialAudienceFields } from '../../shared/schemas/audiences.ts';
import { uploadIdSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** multipart/form-data: the fields and the file */
export const createSocialCsvAudienceRequest = audienceRequestByMode(
  { ...socialAudienceFields, common: { ...socialAudienceFields.common, csvFile: csvFileSchema('csvFile') } },
  false,
);

/** application/json: the same fields and the uploadId of a file sent with create_upload */
export const createSocialAudienceFromUploadRequest = audienceRequestByMode(
  { ...socialAudienceFields, common: { ...socialAudienceFields.common, uploadId: uploadIdSchema } },
  true,
);

export const SOCIAL_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'audienceId'] as const;

export { socialAudienceResultSchema } from '../../shared/schemas/audiences.ts';
