import * as z from 'zod';
import { isUploadedFile, type UploadedFile } from '../http/middleware/multipart-body.ts';
import { numericIdSchema, userIdSchema } from './common.ts';

const csvFileSchema = (field: string) =>
  z
    .custom<UploadedFile>(isUploadedFile, {
      error: `must be one attached CSV file (form field ${field})`,
    })
    .refine((file) => file.content.length > 0, 'the file is empty');

export const createSocialCsvAudienceRequest = z
  .object({
    userId: userIdSchema,
    audienceName: z.string().trim().min(1, 'must not be empty').max(255),
    mode: z.enum(['create', 'append', 'replace', 'remove']).default('create'),
    audienceId: numericIdSchema('audienceId').optional(),
    csvFile: csvFileSchema('csvFile'),
  })
  .superRefine((input, ctx) => {
    if (input.mode !== 'create' && !input.audienceId) {
      ctx.addIssue({ code: 'custom', path: ['audienceId'], message: `is required when mode is ${input.mode}` });
    }
    if (input.mode === 'create' && input.audienceId) {
      ctx.addIssue({ code: 'custom', path: ['audienceId'], message: 'is only for mode append, replace or remove; create makes a new audience' });
    }
  });

export const SOCIAL_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'audienceId'] as const;

export const socialAudienceResultSchema = z.object({
  audienceId: z.string(),
  audienceName: z.string(),
  invalid_entry_samples: z.record(z.string(), z.string()).describe('Unusable rows as {"line 12 (phone)": reason}, and the platform’s own samples; {} when none.'),
  num_invalid_entries: z.number(),
  num_received: z.number(),
  session_id: z.string(),
});

export const createProfessionalCsvAudienceRequest = z.object({
  userId: userIdSchema,
  audienceName: z.string().trim().min(1, 'must not be empty').max(255).optional(),
  mode: z.literal('create', { error: 'create is the only mode' }).default('create'),
  type: z.enum(['COMPANY_LIST_UPLOAD', 'USER_LIST_UPLOAD']),
  csv: csvFileSchema('csv'),
});

export const PROFESSIONAL_AUDIENCE_FIELDS = ['userId', 'audienceName', 'mode', 'type'] as const;
