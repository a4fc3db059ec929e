import * as z from 'zod';

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
export function withFullName(fields: NormalizedLead['fields']): NormalizedLead['fields'] {
  if (fields.fullName || !(fields.firstName || fields.lastName)) return fields;
  return { ...fields, fullName: [fields.firstName, fields.lastName].filter(Boolean).join(' ') };
}
