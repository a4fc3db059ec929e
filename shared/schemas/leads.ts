import * as z from 'zod';
import { userIdSchema } from './common.ts';

/** A lead as the service delivers and lists it (docs/leads.md, "The normalized lead"). */
export const normalizedLeadSchema = z
  .object({
    leadId: z.string().describe('The platform’s id of the lead.'),
    platform: z.enum(['social', 'professional']),
    formId: z.string(),
    campaignId: z.string().optional(),
    adSetId: z.string().optional(),
    adId: z.string().optional(),
    createdAt: z.string().describe('When the person submitted the form (ISO 8601, UTC).'),
    isTest: z.boolean(),
    fields: z
      .object({
        email: z.string().optional(),
        phone: z.string().optional(),
        fullName: z.string().optional(),
        firstName: z.string().optional(),
        lastName: z.string().optional(),
        company: z.string().optional(),
        jobTitle: z.string().optional(),
        city: z.string().optional(),
        country: z.string().optional(),
        zip: z.string().optional(),
      })
      .strict()
      .describe('The answers a CRM needs, by name (also in `answers`). Values as the person typed them.'),
    answers: z.array(z.object({ key: z.string(), question: z.string(), value: z.string() }).strict()).describe('Every answer, in the form’s order.'),
    consents: z.array(z.object({ key: z.string(), accepted: z.boolean() }).strict()),
  })
  .strict();
export type NormalizedLead = z.infer<typeof normalizedLeadSchema>;

/** A full name made from first and last when the form asked for those (never the other way round). */
function withFullName(fields: NormalizedLead['fields']): NormalizedLead['fields'] {
  if (fields.fullName || !(fields.firstName || fields.lastName)) return fields;
  return { ...fields, fullName: [fields.firstName, fields.lastName].filter(Boolean).join(' ') };
}

/** A platform's work e-mail or phone stands in for the personal one only when the form asked for none. */
const WORK_FIELDS = new Set(['WORK_EMAIL', 'WORK_PHONE_NUMBER']);

/** The fields a lead's answers name, collected as each platform's normalizer reads them. */
export function leadFields() {
  const fields: NormalizedLead['fields'] = {};
  const work: NormalizedLead['fields'] = {};
  return {
    add(field: keyof NormalizedLead['fields'] | undefined, platformName: string | undefined, value: string): void {
      if (field && value) (WORK_FIELDS.has(platformName ?? '') ? work : fields)[field] ??= value;
    },
    result: (): NormalizedLead['fields'] => withFullName({ ...work, ...fields }),
  };
}

/** subscribe and unsubscribe: what they take and answer. */
export const leadsPlatformFields = { userId: userIdSchema, platform: z.enum(['social', 'professional']) };
export const subscriptionsResultSchema = z.object({
  subscriptions: z.array(
    z.object({
      target: z.string().describe('The Page (social) or ad account (professional) the user’s connection reaches.'),
      status: z.enum(['subscribed', 'failed', 'unsubscribed']),
      error: z.object({ code: z.string(), message: z.string() }).optional().describe('Why the platform refused this one.'),
    }),
  ),
});
