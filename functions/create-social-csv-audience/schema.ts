import * as z from 'zod';
import { csvFileSchema, checkSocialMode, socialAudienceFields } from '../../shared/schemas/audiences.ts';
import { uploadIdSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** multipart/form-data: the fields and the file */
export const createSocialCsvAudienceRequest = z.object({ ...socialAudienceFields, csvFile: csvFileSchema('csvFile') }).superRefine(checkSocialMode);

/** application/json: the same fields and the uploadId of a file sent with create_upload */
export const createSocialAudienceFromUploadRequest = z.strictObject({ ...socialAudienceFields, uploadId: uploadIdSchema }).superRefine(checkSocialMode);

export const SOCIAL_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'audienceId'] as const;

export { socialAudienceResultSchema } from '../../shared/schemas/audiences.ts';
