import * as z from 'zod';
import { professionalAudienceFields, csvFileSchema } from '../../shared/schemas/audiences.ts';
import { jobStatusSchema, uploadIdSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const createProfessionalCsvAudienceRequest = z.object({ ...professionalAudienceFields, csv: csvFileSchema('csv') });

export const createProfessionalAudienceFromUploadRequest = z.strictObject({ ...professionalAudienceFields, uploadId: uploadIdSchema });

export const PROFESSIONAL_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'type'] as const;

export const jobStartedSchema = z.object({ jobId: z.string(), status: jobStatusSchema });
