import * as z from 'zod';
import { PLATFORMS } from '../core/errors.ts';
import { CONVERSION_STATUSES, STAGE_NAME } from './conversion-values.ts';

/**
 * The user's CRM funnel as the conversions relay keeps it (docs/conversions.md): 1–10 stages, earliest
 * first, each mapped to a destination on any of the platforms.
 */
const digits = (what: string) => z.string().regex(/^\d{1,20}$/, `must be the ${what}'s id (digits)`);

export const stageMappingSchema = z.strictObject({
  stage: z
    .string()
    .regex(STAGE_NAME, 'must start with a letter and hold at most 40 letters, digits and _')
    .describe('The CRM stage, e.g. Lead, Qualified, Won.'),
  social: z
    .strictObject({
      datasetId: digits('dataset'),
      eventName: z
        .string()
        .min(1)
        .max(50)
        .regex(/^[A-Za-z0-9_ ]+$/, 'must hold letters, digits, spaces and _ only')
        .describe('The event name the dataset receives for this stage (Conversion Leads takes the CRM stage name).'),
    })
    .optional(),
  searchads: z.strictObject({ conversionActionId: digits('conversion action') }).optional(),
  professional: z.strictObject({ conversionRuleId: digits('conversion rule') }).optional(),
});
export type StageMapping = z.infer<typeof stageMappingSchema>;

export const crmNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'must hold letters, digits, spaces and . _ - only')
  .describe('The CRM the outcomes come from (HubSpot, Salesforce, …): the social platform receives it as lead_event_source.');

export const stagesSchema = z
  .array(stageMappingSchema)
  .min(1)
  .max(10)
  .superRefine((stages, context) => {
    const seen = new Set<string>();
    for (const [index, { stage }] of stages.entries()) {
      if (seen.has(stage.toLowerCase())) context.addIssue({ code: 'custom', path: [index, 'stage'], message: `stage ${stage} appears twice` });
      seen.add(stage.toLowerCase());
    }
  })
  .describe('The funnel in order, earliest first; each stage maps to a destination on any platform.');

export const conversionStagesSchema = z.object({
  crmName: z.string().optional(),
  stages: z.array(stageMappingSchema),
  updatedAt: z.string().optional().describe('ISO 8601; absent until stages are set'),
});
export type ConversionStages = z.infer<typeof conversionStagesSchema>;

export const destinationSchema = z.object({
  destinationId: z.string(),
  name: z.string(),
  kind: z.enum(['dataset', 'conversion_action', 'conversion_rule']),
});

export const conversionEventSchema = z.object({
  eventId: z.string(),
  leadId: z.string().optional(),
  stage: z.string(),
  occurredAt: z.string(),
  platforms: z.array(
    z.object({
      platform: z.enum(PLATFORMS),
      destinationId: z.string(),
      status: z.enum(CONVERSION_STATUSES),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
    }),
  ),
});

/** What a stage was worth, in major units: a decimal string, never a float (docs/conversions.md). */
export const conversionValueSchema = z
  .strictObject({
    amount: z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'must be a decimal amount such as 1250.00'),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code'),
  })
  .describe('What the stage was worth (a deal won), in major units.');

export const EVENT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
export const MAX_EVENTS_PER_SEND = 10_000;
const consentStatus = z.enum(['CONSENT_GRANTED', 'CONSENT_DENIED', 'CONSENT_STATUS_UNSPECIFIED']);
const text = (max: number) => z.string().trim().min(1).max(max);

export const crmContactSchema = z
  .strictObject({
    email: text(254).optional(),
    phone: text(40).optional().describe('With its + and country code, or a national number beside `country`.'),
    firstName: text(100).optional(),
    lastName: text(100).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
      .optional(),
    postalCode: text(20).optional(),
    clickIds: z
      .strictObject({
        fbc: text(500).optional(),
        fbp: text(500).optional(),
        gclid: text(500).optional(),
        gbraid: text(500).optional(),
        wbraid: text(500).optional(),
        liFatId: text(500).optional(),
      })
      .optional()
      .describe('The click ids each platform set (never hashed): fbc/fbp social, gclid/gbraid/wbraid search ads, liFatId professional.'),
  })
  .describe('Who converted. Hashed at once by each platform’s rules; never stored, logged or answered as sent.');

export const crmEventSchema = z.strictObject({
  eventId: z
    .string()
    .regex(EVENT_ID, 'must be 1–64 of A–Z a–z 0–9 _ . : -')
    .describe('The CRM’s own id of the event: the platforms’ event id, so a repeat is counted once.'),
  stage: z.string().regex(STAGE_NAME, 'must be a stage name of the user’s funnel').describe('A stage of the user’s funnel, matched whatever its case.'),
  occurredAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' }).describe('When it happened; at most 5 minutes ahead.'),
  user: crmContactSchema,
  value: conversionValueSchema.optional(),
  consent: z
    .strictObject({ adUserData: consentStatus, adPersonalization: consentStatus })
    .optional()
    .describe(
      'As the person gave it. adUserData CONSENT_DENIED: the event goes nowhere (skipped_consent); search ads receives it always (unspecified when absent).',
    ),
});
export type CrmEvent = z.infer<typeof crmEventSchema>;

export const crmEventsSchema = z
  .array(crmEventSchema)
  .min(1)
  .max(MAX_EVENTS_PER_SEND, `at most ${MAX_EVENTS_PER_SEND} events a call`)
  .superRefine((events, context) => {
    const first = new Map<string, number>();
    for (const [index, { eventId }] of events.entries()) {
      const earlier = first.get(eventId);
      if (earlier === undefined) first.set(eventId, index);
      else context.addIssue({ code: 'custom', path: [index, 'eventId'], message: `repeats the eventId of events[${earlier}]` });
    }
  });

/** An event's fate on one platform, as validateOnly answers it. */
export const eventCheckSchema = z.object({
  eventId: z.string(),
  platforms: z.array(
    z.object({
      platform: z.enum(PLATFORMS),
      status: z.enum(CONVERSION_STATUSES).describe('queued: it would be sent; rejected: the platform or the service would refuse it (problems say why).'),
      problems: z.array(z.string()).optional(),
    }),
  ),
});

/** What a `conversions` job (/conversions/send) ends with. */
export const conversionsResultSchema = z.object({
  events: z.number().describe('Events in the call.'),
  alreadySent: z.number().describe('Events whose eventId an earlier call sent: each kept its first outcome and was not sent again.'),
  platforms: z
    .partialRecord(z.enum(PLATFORMS), z.partialRecord(z.enum(CONVERSION_STATUSES), z.number()))
    .describe('Per platform, how many of this call’s events ended in each status.'),
  warnings: z.array(z.string()).optional(),
});
export type ConversionsResult = z.infer<typeof conversionsResultSchema>;
