import * as z from 'zod';
import { isUploadedFile, type UploadedFile } from './uploaded-file.ts';
import { numericIdSchema, userIdSchema } from './common.ts';

/** What operation 7 does with its list; what kind of list operation 8 takes. */
export const audienceModeSchema = z.enum(['create', 'append', 'replace', 'remove']);
export const listTypeSchema = z.enum(['USER_LIST_UPLOAD', 'COMPANY_LIST_UPLOAD']);

export const csvFileSchema = (field: string) =>
  z
    .custom<UploadedFile>(isUploadedFile, {
      error: `must be one attached CSV file (form field ${field})`,
    })
    .refine((file) => file.content.length > 0, 'the file is empty');

export const socialAudienceFields = {
  userId: userIdSchema,
  audienceName: z.string().trim().min(1, 'must not be empty').max(255),
  mode: audienceModeSchema.default('create'),
  audienceId: numericIdSchema('audienceId').optional(),
};

export function checkSocialMode(input: { mode: string; audienceId?: string }, ctx: z.RefinementCtx): void {
  if (input.mode !== 'create' && !input.audienceId) {
    ctx.addIssue({ code: 'custom', path: ['audienceId'], message: `is required when mode is ${input.mode}` });
  }
  if (input.mode === 'create' && input.audienceId) {
    ctx.addIssue({ code: 'custom', path: ['audienceId'], message: 'is only for mode append, replace or remove; create makes a new audience' });
  }
}

export type AudienceMode = z.infer<typeof audienceModeSchema>;
export type ListType = z.infer<typeof listTypeSchema>;

export const professionalAudienceFields = {
  userId: userIdSchema,
  audienceName: z.string().trim().min(1, 'must not be empty').max(255).optional(),
  mode: z.literal('create', { error: 'create is the only mode' }).default('create'),
  type: z.enum(['COMPANY_LIST_UPLOAD', 'USER_LIST_UPLOAD']),
};

/** What operation 7 answers (and its job's `result`): the audience and the platform's counts. */
export const socialAudienceResultSchema = z.object({
  audienceId: z.string(),
  audienceName: z.string(),
  invalid_entry_samples: z
    .record(z.string(), z.string())
    .describe('Unusable rows as {"line 12 (phone)": reason}, and the platform’s own samples; {} when none.'),
  num_invalid_entries: z.number(),
  num_received: z.number(),
  session_id: z.string(),
});
