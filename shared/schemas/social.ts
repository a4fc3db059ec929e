import * as z from 'zod';

// ---- requests -------------------------------------------------------------------------------

// ---- results --------------------------------------------------------------------------------

export const pagingSchema = z
  .object({ next: z.string().optional(), previous: z.string().optional() })
  .describe('Send `next` or `previous` back as `pagination` for the following or preceding page.');

export const imageMediaSchema = z.object({
  id: z.string().describe('The platform’s id of the image: `<ad account id>:<hash>`.'),
  hash: z.string().optional().describe('The image’s hash: what a creative names (create_campaign takes it, or the id).'),
  url: z.string(),
  width: z.number(),
  height: z.number(),
});

export const videoFormatSchema = z.object({
  embed_html: z.string(),
  filter: z.string(),
  width: z.number(),
  height: z.number(),
  picture: z.string(),
});

export const videoMediaSchema = z.object({ id: z.string(), format: z.array(videoFormatSchema) });

export const photoPageMediaSchema = z.object({
  id: z.string(),
  caption: z.string().optional(),
  media_type: z.enum(['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM']),
  media_url: z.string().optional().describe('Absent when the platform withholds it (copyrighted material).'),
  permalink: z.string(),
  timestamp: z.string(),
  ig_id: z.string().optional(),
  boost_eligibility_info: z.object({ eligible_to_boost: z.boolean() }).optional(),
  media_product_type: z.enum(['FEED', 'STORY', 'REELS', 'AD']),
});

export const targetingLocationSchema = z.object({
  key: z.string(),
  name: z.string(),
  region: z.string().optional(),
  country_name: z.string().optional(),
  type: z.string(),
  country_code: z.string().optional(),
  region_id: z.number().optional(),
  supports_region: z.boolean(),
  supports_city: z.boolean(),
});

export const campaignListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  objective: z.string(),
  daily_budget: z.string().describe('Minor currency units as the platform gives them; "" when the budget is set on ad sets.'),
  status: z.enum(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED']).describe('The campaign’s own status as the platform sets it (not its delivery).'),
  issues_info: z.string().describe('The platform’s issues array as a JSON string; "" when there is none.'),
  created_time: z.string(),
});

export type ImageMedia = z.infer<typeof imageMediaSchema>;
export type VideoMedia = z.infer<typeof videoMediaSchema>;
export type PhotoPageMedia = z.infer<typeof photoPageMediaSchema>;
export type TargetingLocation = z.infer<typeof targetingLocationSchema>;
export type CampaignListItem = z.infer<typeof campaignListItemSchema>;
