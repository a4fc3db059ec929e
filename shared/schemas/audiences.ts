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

/** Google Customer Match through the Data Manager API (docs/google-audiences.md). */
export const searchadsAudienceModeSchema = audienceModeSchema;
const consentValue = z.enum(['CONSENT_GRANTED', 'CONSENT_DENIED']);

/** The consent the connection's user states for the list's people; in a form, the same object as JSON text. */
export const consentSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z
    .strictObject({ adUserData: consentValue, adPersonalization: consentValue })
    .describe(
      'The consent of the list’s people, as the advertiser states it (EEA people without both granted are dropped by Google). Calling the operation also states that the advertiser accepted Google’s Customer Match terms; the job records it.',
    ),
);
export type Consent = z.output<typeof consentSchema>;

export const searchadsAudienceIdSchema = z
  .string()
  .regex(/^(aud_[0-9a-f]{24}|\d{1,20})$/, 'must be an audienceId this operation answered, or the id of a Customer Match list of the account')
  .describe('With mode append, remove or replace: the audienceId a create answered (or a Customer Match list id of the account).');

export const searchadsAudienceFields = {
  userId: userIdSchema,
  audienceName: z.string().trim().min(1, 'must not be empty').max(200).optional().describe('Required with mode create.'),
  mode: searchadsAudienceModeSchema.default('create'),
  audienceId: searchadsAudienceIdSchema.optional(),
  consent: consentSchema,
};

export function checkSearchadsMode(input: { mode: string; audienceId?: string; audienceName?: string }, ctx: z.RefinementCtx): void {
  checkSocialMode(input, ctx);
  if (input.mode === 'create' && !input.audienceName) ctx.addIssue({ code: 'custom', path: ['audienceName'], message: 'is required when mode is create' });
}

export const searchadsAudienceStartedSchema = z.object({
  audienceId: z.string().describe('Ours: give it to append, remove and replace. The job’s result names Google’s list (userListId).'),
  jobId: z.string(),
  status: z.string(),
});
