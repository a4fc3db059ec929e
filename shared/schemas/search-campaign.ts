import { getCountries, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import * as z from 'zod';
import { clock } from '../core/clock.ts';
import { languageConstantId } from './searchads-languages.ts';
import { dateSchema, numericIdSchema, userIdSchema } from './common.ts';

/** Operation 9's request: every rule of the spec, checked before anything is sent. */
const keywordSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters')
    .refine((text) => text.split(/\s+/).length <= 10, 'must be at most 10 words'),
  match_type: z.enum(['EXACT', 'PHRASE', 'BROAD']),
});

const proximitySchema = z
  .object({
    radius_units: z.enum(['MILES', 'KILOMETERS']),
    radius: z.number().positive(),
    longitude_in_micro_degrees: z.number().int().min(-180_000_000).max(180_000_000),
    latitude_in_micro_degrees: z.number().int().min(-90_000_000).max(90_000_000),
  })
  .superRefine((proximity, ctx) => {
    const max = proximity.radius_units === 'MILES' ? 500 : 800;
    if (proximity.radius > max) ctx.addIssue({ code: 'custom', path: ['radius'], message: `must be at most ${max} ${proximity.radius_units.toLowerCase()}` });
  });

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048);
const lineText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !/[\n\r\0]/.test(text), 'must be one line');

const adSchema = z
  .object({
    url: httpUrl,
    headlines: z.array(lineText(30)).min(3, 'must have 3 to 15 headlines').max(15, 'must have 3 to 15 headlines'),
    descriptions: z.array(lineText(90)).min(2, 'must have 2 to 4 descriptions').max(4, 'must have 2 to 4 descriptions'),
    headlineIndexToPinFirstSlot: z.number().int().nonnegative().optional(),
    descriptionIndexToPinFirstSlot: z.number().int().nonnegative().optional(),
  })
  .superRefine((ad, ctx) => {
    if (ad.headlineIndexToPinFirstSlot !== undefined && ad.headlineIndexToPinFirstSlot >= ad.headlines.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['headlineIndexToPinFirstSlot'],
        message: `must index one of the ${ad.headlines.length} headlines (0 to ${ad.headlines.length - 1})`,
      });
    }
    if (ad.descriptionIndexToPinFirstSlot !== undefined && ad.descriptionIndexToPinFirstSlot >= ad.descriptions.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['descriptionIndexToPinFirstSlot'],
        message: `must index one of the ${ad.descriptions.length} descriptions (0 to ${ad.descriptions.length - 1})`,
      });
    }
  });

const geoId = numericIdSchema('location id');
const countries = new Set<string>(getCountries());

export const createSearchCampaignRequest = z
  .strictObject({
    userId: userIdSchema,
    objective: z.enum(['TRAFFIC', 'CONVERSION']),
    campaignName: lineText(255),
    dailyBudget: z
      .string()
      .trim()
      .regex(/^\d{1,12}(\.\d{1,6})?$/, 'must be a positive amount such as "50" or "19.99"')
      .refine((amount) => Number(amount) > 0, 'must be more than 0'),
    startDate: dateSchema.check(z.refine((date: string) => date >= clock.today(-1), 'must not be in the past')),
    endDate: z.optional(dateSchema),
    keywords: z.array(keywordSchema).min(1, 'must have at least one keyword').max(5000),
    negativeKeywords: z.array(keywordSchema).max(5000).optional(),
    locations: z.array(geoId).max(1000).optional(),
    proximityTargeting: z.array(proximitySchema).max(500).optional(),
    negativeLocations: z.array(geoId).max(1000).optional(),
    geo_target_type: z.enum(['PRESENCE', 'PRESENCE_OR_INTEREST']).default('PRESENCE'),
    languages: z
      .array(z.string().refine((code) => languageConstantId(code) !== undefined, 'is not a language code the platform targets'))
      .max(50)
      .optional(),
    ads: z.array(adSchema).min(1, 'must have at least one ad').max(3, 'must have at most 3 ads (the platform serves 3 per ad group)'),
    conversionEvents: z.array(numericIdSchema('conversion action id')).max(20).optional(),
    callouts: z.array(lineText(25)).max(20),
    phoneNumber: z.string().trim().min(1).max(40).optional(),
    phoneNumberCountryCode: z.string().optional(),
    leadFormAssetId: z.optional(numericIdSchema('leadFormAssetId')),
    images: z.array(httpUrl).max(8, 'must have at most 8 images').optional(),
    utmParams: z
      .string()
      .trim()
      .transform((params) => params.replace(/^[?&]+/, ''))
      .pipe(
        z
          .string()
          .min(1)
          .max(2048)
          .regex(/^[^\s?#]+=[^\s#]*$/, 'must be a query string such as utm_source=google&utm_medium=cpc'),
      )
      .optional(),
    locationGroupId: z.optional(numericIdSchema('locationGroupId')),
    validateOnly: z.boolean().default(false).describe('Run the same request as a dry run: validated by the platform, nothing created.'),
  })
  .superRefine((input, ctx) => {
    if (!input.locations?.length && !input.proximityTargeting?.length) {
      ctx.addIssue({ code: 'custom', path: ['locations'], message: 'locations or proximityTargeting is required' });
    }
    if (input.objective === 'CONVERSION' && !input.conversionEvents?.length) {
      ctx.addIssue({ code: 'custom', path: ['conversionEvents'], message: 'is required when objective is CONVERSION' });
    }
    if (input.endDate && input.endDate < input.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
    if (input.phoneNumberCountryCode !== undefined && !countries.has(input.phoneNumberCountryCode)) {
      ctx.addIssue({ code: 'custom', path: ['phoneNumberCountryCode'], message: 'must be a two-letter upper-case ISO country code' });
    }
    if (input.phoneNumber) {
      if (input.phoneNumberCountryCode === undefined) {
        ctx.addIssue({ code: 'custom', path: ['phoneNumberCountryCode'], message: 'is required when phoneNumber is given' });
      } else if (countries.has(input.phoneNumberCountryCode) && !isValidPhoneNumber(input.phoneNumber, input.phoneNumberCountryCode as CountryCode)) {
        ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: `is not a valid phone number for ${input.phoneNumberCountryCode}` });
      }
    }
  });

export type CreateSearchCampaignInput = z.infer<typeof createSearchCampaignRequest>;
