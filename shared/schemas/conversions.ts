import * as z from 'zod';
import { PLATFORMS } from '../core/errors.ts';

/**
 * The user's CRM funnel as the conversions relay keeps it (docs/conversions.md): 1–10 stages, earliest
 * first, each mapped to a destination on any of the platforms.
 */
export const STAGE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
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

/** Where an event stands on one platform (docs/conversions.md, "Delivery"). */
export const CONVERSION_STATUSES = ['queued', 'delivered', 'rejected', 'unknown', 'skipped_expired', 'skipped_consent', 'skipped_no_identifier'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

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
