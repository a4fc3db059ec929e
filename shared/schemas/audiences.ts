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

/**
 * A contact list's request, one shape per mode (a oneOf by `mode` in the document, so that a typed
 * client's types refuse an append without `audienceId` as the service does): `create` (the default)
 * makes a new audience and names none; `append`, `replace` and `remove` name the audience they change.
 * `common` are the fields of every mode; `createOnly` and `changeOnly` those of one side.
 */
export function audienceRequestByMode<Common extends z.core.$ZodLooseShape, CreateOnly extends z.core.$ZodLooseShape, ChangeOnly extends z.core.$ZodLooseShape>(
  fields: { common: Common; createOnly: CreateOnly; changeOnly: ChangeOnly; audienceId: (requiredMessage: string) => z.core.$ZodType<string, string> },
  strict: boolean,
) {
  const object = strict ? z.strictObject : z.object;
  const change = <Mode extends 'append' | 'replace' | 'remove'>(mode: Mode) =>
    object({ ...fields.common, ...fields.changeOnly, mode: z.literal(mode), audienceId: fields.audienceId(`is required when mode is ${mode}`) });
  return z.discriminatedUnion('mode', [
    object({
      ...fields.common,
      ...fields.createOnly,
      mode: z.literal('create').default('create'),
      audienceId: z.never({ error: 'is only for mode append, replace or remove; create makes a new audience' }).optional(),
    }),
    change('append'),
    change('replace'),
    change('remove'),
  ]);
}

export const socialAudienceFields = {
  common: { userId: userIdSchema, audienceName: z.string().trim().min(1, 'must not be empty').max(255) },
  createOnly: {},
  changeOnly: {},
  audienceId: (requiredMessage: string) => numericIdSchema('audienceId', { requiredMessage }),
};

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

const searchadsAudienceIdSchema = (requiredMessage: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? requiredMessage : undefined) })
    .regex(/^(aud_[0-9a-f]{24}|\d{1,20})$/, 'must be an audienceId this operation answered, or the id of a Customer Match list of the account')
    .describe('The audienceId a create answered (or a Customer Match list id of the account).');

const searchadsAudienceName = z.string().trim().min(1, 'must not be empty').max(200);
export const searchadsAudienceFields = {
  common: { userId: userIdSchema, consent: consentSchema },
  createOnly: {
    audienceName: z.string({ error: (issue) => (issue.input === undefined ? 'is required when mode is create' : undefined) }).pipe(searchadsAudienceName),
  },
  changeOnly: { audienceName: searchadsAudienceName.optional().describe('A new name is not given to the list; it names the audience in our records only.') },
  audienceId: searchadsAudienceIdSchema,
};

export const searchadsAudienceStartedSchema = z.object({
  audienceId: z.string().describe('Ours: give it to append, remove and replace. The job’s result names Google’s list (userListId).'),
  jobId: z.string(),
  status: z.string(),
});
