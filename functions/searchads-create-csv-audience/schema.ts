import * as z from 'zod';
import { checkSearchadsMode, csvFileSchema, searchadsAudienceFields, searchadsAudienceStartedSchema } from '../../shared/schemas/audiences.ts';
import { uploadIdSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** multipart/form-data: the fields (`consent` as JSON text) and the file */
export const createSearchadsCsvAudienceRequest = z.object({ ...searchadsAudienceFields, csvFile: csvFileSchema('csvFile') }).superRefine(checkSearchadsMode);

/** application/json: the same fields and the uploadId of a file sent with create_upload */
export const createSearchadsAudienceFromUploadRequest = z
  .strictObject({ ...searchadsAudienceFields, uploadId: uploadIdSchema })
  .superRefine(checkSearchadsMode);

export const SEARCHADS_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'audienceId', 'consent'] as const;

export const searchadsAudienceStartedResult = searchadsAudienceStartedSchema;
