import * as z from 'zod';
import { clock } from '../clock.ts';
import { createProfessionalAudienceFromUploadRequest, createProfessionalCsvAudienceRequest, createSocialAudienceFromUploadRequest, createSocialCsvAudienceRequest, socialAudienceResultSchema } from './audiences.ts';
import { createUploadRequest, getJobRequest, jobStartedSchema, jobViewSchema, uploadTicketSchema } from './uploads.ts';
import { createLeadFormRequest } from './lead-form.ts';
import { getOptimizationHistoryRequest, historyEntrySchema, optimizationRecordSchema, recordOptimizationRequest } from './optimization.ts';
import { createSearchCampaignRequest, createSearchCampaignResultSchema } from './search-campaign.ts';
import { getSearchAdsResultRequest, searchAdsStatsSchema } from './searchads.ts';
import {
  campaignListItemSchema,
  getAdAccountMediaRequest,
  getCampaignsListRequest,
  getPhotoPageMediaRequest,
  imageMediaSchema,
  pagingSchema,
  photoPageMediaSchema,
  searchTargetingLocationsRequest,
  targetingLocationSchema,
  videoMediaSchema,
} from './social.ts';
import {
  getSettingsRequest,
  listWebhookEventsRequest,
  sendTestWebhookRequest,
  settingsResultSchema,
  updateSettingsRequest,
  webhookEventViewSchema,
} from './tenant.ts';
import { createLinkRequest, createLinkResult } from './connect.ts';
import { createUserRequest, disconnectRequest, getProfileRequest } from './users.ts';

/**
 * Every operation's request and result schema with a summary and examples: the source of the
 * OpenAPI document (no hand-written copy). Only the document's generator imports this module, so no
 * function bundle carries the other operations' schemas.
 */
export interface OperationDoc {
  summary: string;
  description: string;
  tag: 'Users' | 'Connect' | 'Optimization' | 'Social' | 'Search ads' | 'Audiences' | 'Tenant';
  request: z.ZodType;
  result: z.ZodType;
  /** the file part of a multipart/form-data request */
  fileField?: string;
  /** an upload operation's JSON body instead: the fields and the uploadId of a file sent with create_upload */
  fromUpload?: { request: z.ZodType; requestExample: Record<string, unknown> };
  requestExample: Record<string, unknown>;
  resultExample: Record<string, unknown>;
}

const connectionHealth = {
  status: z.enum(['active', 'expiring', 'reconnect_required']).describe('reconnect_required: the platform refused the grant; connect the account again.'),
  connectedAt: z.string().describe('ISO 8601'),
  connectedVia: z.enum(['link', 'token']),
  expiresAt: z.string().optional().describe('When the stored grant runs out, when known (ISO 8601).'),
  scopes: z.array(z.string()).optional().describe('The permissions the grant carries, when known.'),
};
const connectionsView = z.object({
  social: z.object({ adAccountId: z.string(), pageId: z.string().optional(), photoAccountId: z.string().optional(), ...connectionHealth }).optional(),
  searchads: z.object({ customerId: z.string(), loginCustomerId: z.string().optional(), ...connectionHealth }).optional(),
  professional: z.object({ adAccountId: z.string(), ...connectionHealth }).optional(),
});

/** Examples' dates are relative to the day the document is built, so they stay valid on any day. */
const day = (offset: number) => clock.today(offset);

const WINTER_CAMPAIGN = {
  userId: 'demo-user',
  objective: 'TRAFFIC',
  campaignName: 'Winter Tune-Up 2026',
  dailyBudget: '50',
  startDate: day(1),
  endDate: day(90),
  keywords: [{ text: 'furnace repair', match_type: 'EXACT' }],
  proximityTargeting: [{ radius_units: 'MILES', radius: 15, longitude_in_micro_degrees: -104990300, latitude_in_micro_degrees: 39739200 }],
  languages: ['en'],
  ads: [{ url: 'https://www.example.com/heating-repair', headlines: ['Furnace Repair in Denver', 'Same-Day Heating Service', 'Licensed & Insured Techs'], descriptions: ['Fast, reliable furnace and heating repair.', 'Upfront pricing, no overtime fees.'], headlineIndexToPinFirstSlot: 0 }],
  callouts: ['24/7 Emergency Service'],
  phoneNumber: '(303) 555-0147',
  phoneNumberCountryCode: 'US',
};

export const operationDocs: Record<string, OperationDoc> = {
  create_user: {
    summary: 'Register a user',
    description: 'Creates a user of your API key’s tenant with its platform connections. Tokens are stored encrypted and never returned.',
    tag: 'Users',
    request: createUserRequest,
    result: z.object({ userId: z.string() }),
    requestExample: { userId: 'alice', connections: { searchads: { refreshToken: '1//refresh-token', customerId: '123-456-7890' } } },
    resultExample: { userId: 'alice' },
  },
  get_profile: {
    summary: 'Read a user',
    description: 'The user and its connections, without any token.',
    tag: 'Users',
    request: getProfileRequest,
    result: z.object({ user: z.object({ userId: z.string(), createdAt: z.string(), connections: connectionsView }) }),
    requestExample: { userId: 'demo-user' },
    resultExample: { user: { userId: 'demo-user', createdAt: `${day(-1)}T11:10:12.655Z`, connections: { searchads: { customerId: '1234567890', status: 'active', connectedAt: `${day(-1)}T11:10:12.655Z`, connectedVia: 'token' } } } },
  },
  disconnect: {
    summary: 'Disconnect a platform',
    description: 'Removes the user’s connection to a platform and its tokens, and sends `connection.disconnected`. Operations on that platform then answer 409 PLATFORM_NOT_CONNECTED.',
    tag: 'Users',
    request: disconnectRequest,
    result: z.object({ userId: z.string(), platform: z.enum(['social', 'searchads', 'professional']), status: z.literal('disconnected') }),
    requestExample: { userId: 'demo-user', platform: 'social' },
    resultExample: { userId: 'demo-user', platform: 'social', status: 'disconnected' },
  },
  create_link: {
    summary: 'Create a connect link',
    description:
      'A hosted link that connects one user’s account on a platform: send the person to `link` (valid 24 hours, completes once). They consent on the platform, pick an ad account when they can reach several, and come back to `redirectUri` (exactly one of your tenant’s `redirectUris`) with `status=connected&platform=…&userId=…&state=…`, or `status=error&error=access_denied|no_ad_account|expired|platform_error&…`. No token, code or platform message is ever in that URL. A connection made again replaces the one the user had; `connection.connected` is sent to your webhook.',
    tag: 'Connect',
    request: createLinkRequest,
    result: createLinkResult,
    requestExample: { userId: 'demo-user', platform: 'searchads', redirectUri: 'https://app.example.com/connected', state: 'your-own-value' },
    resultExample: { link: 'https://api.example.com/auth/connect/7rb7ajMlcboL8YamyIFgEhoU', expiresAt: 1795585587273 },
  },
  get_campaign_optimization_history: {
    summary: 'Get campaign optimization history (operation 3)',
    description: 'The log of changes made by audience and creative optimizations of a campaign, oldest first. One answer holds the newest entries up to 4 MB; `results.paging.next`, sent back as `pagination`, gives the older ones. 404 NOT_FOUND for a campaign never optimized.',
    tag: 'Optimization',
    request: getOptimizationHistoryRequest,
    result: z.object({ campaign: optimizationRecordSchema, paging: pagingSchema }),
    requestExample: { userId: 'demo-user', campaignId: '120210000000001' },
    resultExample: {
      campaign: {
        campaignId: '120210000000001', campaignName: 'Autumn sale', startDate: 1760000000000, timestamp: 1760000100000, optimizationStatus: 'ACTIVE', platform: 'social',
        history: [{ adId: '1', adSetId: '2', headlines: [{ newText: 'Fresh bread daily', oldText: 'Bread' }], primaryTexts: [], images: [], timestamp: 1760000100000, lastUpdate: { _seconds: 1760000200, _nanoseconds: 0 } }],
      },
      paging: {},
    },
  },
  record_campaign_optimization: {
    summary: 'Record a campaign optimization',
    description: 'Appends one history entry to a campaign’s optimization record (the first call creates it). The service stamps `lastUpdate`.',
    tag: 'Optimization',
    request: recordOptimizationRequest,
    result: z.object({ campaignId: z.string(), entry: historyEntrySchema }),
    requestExample: { userId: 'demo-user', campaignId: '120210000000001', campaignName: 'Autumn sale', platform: 'social', optimizationStatus: 'ACTIVE', startDate: 1760000000000, entry: { adId: '1', adSetId: '2', headlines: [], primaryTexts: [], images: [], timestamp: 1760000100000 } },
    resultExample: { campaignId: '120210000000001', entry: { adId: '1', adSetId: '2', headlines: [], primaryTexts: [], images: [], timestamp: 1760000100000, lastUpdate: { _seconds: 1760000200, _nanoseconds: 0 } } },
  },
  get_ad_account_media: {
    summary: 'Get ad-account media (operation 1)',
    description: 'The images (type IMAGE) or videos (type VIDEO) of the user’s social ad account, a page at a time: send `results.paging.next` back as `pagination`.',
    tag: 'Social',
    request: getAdAccountMediaRequest,
    result: z.object({ media: z.array(z.union([imageMediaSchema, videoMediaSchema])), paging: pagingSchema }),
    requestExample: { userId: 'demo-user', type: 'IMAGE', pagination: '' },
    resultExample: { media: [{ id: '284756109384756:53c4f08234afb5224d6eb437d379363a', url: 'https://scontent.xx.fbcdn.net/v/t45.1600-4/image.jpg', width: 1200, height: 628 }], paging: { next: 'after:MjA=' } },
  },
  get_photo_page_media: {
    summary: 'Get photo-page media (operation 4)',
    description: 'The posts of the user’s photo-sharing page, a page at a time.',
    tag: 'Social',
    request: getPhotoPageMediaRequest,
    result: z.object({ media: z.array(photoPageMediaSchema), paging: pagingSchema }),
    requestExample: { userId: 'demo-user' },
    resultExample: { media: [{ id: '17988000000000301', caption: 'New autumn collection', media_type: 'IMAGE', media_url: 'https://scontent.cdninstagram.com/v/p.jpg', permalink: 'https://www.instagram.com/p/DFakeShrt01/', timestamp: `${day(-40)}T17:22:05+0000`, ig_id: '3468821947712345678', boost_eligibility_info: { eligible_to_boost: true }, media_product_type: 'FEED' }], paging: {} },
  },
  search_targeting_locations: {
    summary: 'Search targeting locations (operation 5)',
    description: 'City-level targeting locations whose names start with the query.',
    tag: 'Social',
    request: searchTargetingLocationsRequest,
    result: z.object({ locations: z.array(targetingLocationSchema) }),
    requestExample: { userId: 'demo-user', query: 'dub' },
    resultExample: { locations: [{ key: '1051234', name: 'Dublin', region: 'Dublin', country_name: 'Ireland', type: 'city', country_code: 'IE', region_id: 1405, supports_region: true, supports_city: true }] },
  },
  get_campaigns_list: {
    summary: 'Get campaigns list (operation 6)',
    description: 'Every campaign of the user’s social ad account, archived and deleted included.',
    tag: 'Social',
    request: getCampaignsListRequest,
    result: z.object({ campaigns: z.array(campaignListItemSchema) }),
    requestExample: { userId: 'demo-user' },
    resultExample: { campaigns: [{ id: '120210987000000101', name: 'Autumn leads', objective: 'OUTCOME_LEADS', daily_budget: '5000', status: 'ACTIVE', issues_info: '', created_time: `${day(-53)}T10:15:32-0700` }] },
  },
  create_lead_form: {
    summary: 'Create a lead form (operation 10)',
    description: 'Creates the lead form on the user’s page. Every rule of the spec is checked first.',
    tag: 'Social',
    request: createLeadFormRequest,
    result: z.object({ leadFormId: z.string() }),
    requestExample: {
      userId: 'demo-user', leadsFormName: 'Autumn offer', language: 'EN_US', form_type: 'HIGHER_INTENT', privacyPolicyUrl: 'https://www.example.com/privacy', privacyPolicyName: 'Privacy policy',
      leadFormQuestions: [{ type: 'FULL_NAME' }, { type: 'EMAIL' }],
      thankYouPage: { title: 'Thanks!', body: 'We will call you.', button_text: 'Visit website', button_type: 'VIEW_WEBSITE', website_url: 'https://www.example.com' },
    },
    resultExample: { leadFormId: '1029384756102938' },
  },
  create_social_csv_audience: {
    summary: 'Create or modify a social contact-list audience (operation 7)',
    description:
      'A CSV of contacts, normalised, SHA-256-hashed and sent in batches of 10,000 in one upload session. Modes: create, append, replace, remove. Either multipart/form-data with the file (at most 4 MB; the answer comes when every batch has landed), or JSON with the `uploadId` of a file of any size sent with /uploads/create_upload: the audience is created at once (mode create), the answer carries `jobId` and `status: "running"`, and /jobs/get_job follows the job to the platform’s final counts (`audience_job.succeeded` or `audience_job.failed` is sent to your webhook).',
    tag: 'Audiences',
    request: createSocialCsvAudienceRequest,
    result: socialAudienceResultSchema.extend({ jobId: z.string().optional().describe('With an uploadId: the job that sends the rows.'), status: z.literal('running').optional() }),
    fileField: 'csvFile',
    fromUpload: { request: createSocialAudienceFromUploadRequest, requestExample: { userId: 'demo-user', audienceName: 'Newsletter subscribers', mode: 'create', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f' } },
    requestExample: { userId: 'demo-user', audienceName: 'Newsletter subscribers', mode: 'create', csvFile: 'email,phone\nmary@example.com,+1 555 987 6543\n' },
    resultExample: { audienceId: '120210555000010000', audienceName: 'Newsletter subscribers', invalid_entry_samples: {}, num_invalid_entries: 0, num_received: 10, session_id: '1795347041159573' },
  },
  create_csv_audience: {
    summary: 'Create a professional-network contact-list audience (operation 8)',
    description:
      'A contact or company list CSV in the platform’s template. `csvFileId` is the uploaded file’s media URN. Either multipart/form-data with the file (at most 4 MB), or JSON with the `uploadId` of a file sent with /uploads/create_upload: the answer is `{jobId, status}` at once, and the job’s result carries `audience.csvFileId`.',
    tag: 'Audiences',
    request: createProfessionalCsvAudienceRequest,
    result: z.union([z.object({ audience: z.object({ csvFileId: z.string() }), warnings: z.array(z.string()).optional() }), jobStartedSchema]),
    fileField: 'csv',
    fromUpload: { request: createProfessionalAudienceFromUploadRequest, requestExample: { userId: 'demo-user', type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f' } },
    requestExample: { userId: 'demo-user', type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees', csv: 'email,firstname,lastname\navery@example.com,Avery,Lindqvist\n' },
    resultExample: { audience: { csvFileId: 'urn:li:media:/AAYAAgQFakeListUploadMediaToken0000000000000001.csv' } },
  },
  create_upload: {
    summary: 'Create an upload (a list of any size)',
    description:
      'A presigned URL to PUT a contact list of up to 1 GiB to, for operations 7 and 8: PUT exactly `contentLength` bytes with the returned `headers` within 15 minutes (a body of another size is refused), then call the operation with JSON `{…its fields, "uploadId"}`. The file is kept at most 2 days, and deleted once its audience is built.',
    tag: 'Audiences',
    request: createUploadRequest,
    result: uploadTicketSchema,
    requestExample: { userId: 'demo-user', fileName: 'subscribers.csv', contentLength: 17_000_000 },
    resultExample: {
      uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f',
      url: 'https://ad-campaign-api-uploads.s3.amazonaws.com/uploads/tn_1/demo-user/upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&…',
      method: 'PUT',
      headers: { 'content-type': 'text/csv', 'content-length': '17000000' },
      expiresAt: `${day(0)}T10:15:00.000Z`,
    },
  },
  get_job: {
    summary: 'Get an audience job',
    description: 'The status and live progress of a job started by operation 7 or 8 with an uploadId. `result` is the operation’s own result once it succeeded; `error` says why it failed. Another tenant’s job is 404 NOT_FOUND, as an unknown one.',
    tag: 'Audiences',
    request: getJobRequest,
    result: z.object({ job: jobViewSchema }),
    requestExample: { jobId: 'job_8d3f1c2b4a6e9d0f7c5b3a1e2d4f6a8c' },
    resultExample: {
      job: {
        jobId: 'job_8d3f1c2b4a6e9d0f7c5b3a1e2d4f6a8c',
        type: 'social_audience',
        userId: 'demo-user',
        status: 'running',
        progress: { bytesRead: 17_000_000, totalBytes: 17_000_000, rowsRead: 200_000, rowsSent: 120_000, batchesSent: 12 },
        createdAt: `${day(0)}T10:00:00.000Z`,
        updatedAt: `${day(0)}T10:00:41.000Z`,
      },
    },
  },
  get_search_ads_result: {
    summary: 'Get search-ads campaign result (operation 2)',
    description: 'Daily performance of one search-ads campaign; default range the 30 days ending today (UTC).',
    tag: 'Search ads',
    request: getSearchAdsResultRequest,
    result: z.object({ stats: z.array(searchAdsStatsSchema) }),
    requestExample: { userId: 'demo-user', campaignId: '21234567890', startDate: day(-10), endDate: day(-8) },
    resultExample: {
      stats: [{
        campaignid: '21234567890', campaignName: 'Winter Tune-Up 2026', servingStatus: 'SERVING', advertising_channel_type: 'SEARCH', status: 'ENABLED', avgPosition: '0', clicks: '47', conversions: '3', cost: '61.43', ctr: '0.038907',
        impressions: '1208', interactions: '47', topImpressionPercentage: '0.6125', videoViews: '0', videoViewRate: '0', averageCpv: '0', cpm: '50.852649', conversionRateRanking: 'UNKNOWN', costPerConversion: '20.476667',
        dateStart: day(-10), cpc: '1.307021', timeUnit: 'DAY', spend: '61.43', phone_calls: '2', phone_impressions: '318', phone_through_rate: '0.006289', searchImpressionShare: '0.4321', searchBudgetLostImpressionShare: '0.1837',
        searchRankLostImpressionShare: '0.3842', primary_status: 'LIMITED', primary_status_reasons: ['BUDGET_CONSTRAINED'], all_conversions: '4', all_conversions_value: '412.5', display_spend: '0', display_cpc: '0', display_costPerConversion: '0',
      }],
    },
  },
  create_search_campaign: {
    summary: 'Create a search campaign (operation 9)',
    description: 'Creates the whole campaign (budget, campaign, criteria, ad group, ads, keywords, assets, goals) in ONE atomic request. `validateOnly: true` runs it as a dry run.',
    tag: 'Search ads',
    request: createSearchCampaignRequest,
    result: createSearchCampaignResultSchema,
    requestExample: WINTER_CAMPAIGN,
    resultExample: { campaignResourceName: 'customers/1234567890/campaigns/21234567890', adGroupResourceName: 'customers/1234567890/adGroups/158765432109', additionalMessage: '' },
  },
  get_settings: {
    summary: 'Get the tenant’s settings',
    description: 'The redirect URIs connect links may return to, and the webhook (never its secret).',
    tag: 'Tenant',
    request: getSettingsRequest,
    result: settingsResultSchema,
    requestExample: {},
    resultExample: { settings: { redirectUris: ['https://app.example.com/connected'], webhook: { url: 'https://app.example.com/webhooks', events: ['connection.connected', 'audience_job.succeeded'] } } },
  },
  update_settings: {
    summary: 'Update the tenant’s settings',
    description:
      'A field left out keeps its value; `webhook: null` removes the webhook. Redirect URIs are compared as exact strings (at most 20; https:, or http: for localhost). The webhook URL must be https: and resolve to public addresses. The first time a webhook is set, or with `rotateWebhookSecret: true`, the answer carries `webhookSecret` once.',
    tag: 'Tenant',
    request: updateSettingsRequest,
    result: settingsResultSchema,
    requestExample: { redirectUris: ['https://app.example.com/connected'], webhook: { url: 'https://app.example.com/webhooks' } },
    resultExample: {
      settings: { redirectUris: ['https://app.example.com/connected'], webhook: { url: 'https://app.example.com/webhooks', events: ['connection.connected', 'connection.reconnect_required', 'connection.disconnected', 'audience_job.succeeded', 'audience_job.failed'] } },
      webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    },
  },
  list_webhook_events: {
    summary: 'List webhook events',
    description: 'The tenant’s events, newest first, with their delivery state: `pending`, `delivered` or `failed` after the last retry (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).',
    tag: 'Tenant',
    request: listWebhookEventsRequest,
    result: z.object({ events: z.array(webhookEventViewSchema), paging: pagingSchema }),
    requestExample: { pagination: '' },
    resultExample: { events: [{ id: 'msg_2b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e', type: 'webhook.test', createdAt: `${day(0)}T09:00:00.000Z`, status: 'delivered', attempts: 1, lastStatus: 200, lastAttemptAt: `${day(0)}T09:00:00.120Z` }], paging: {} },
  },
  send_test_webhook: {
    summary: 'Send a test webhook',
    description: 'Queues a `webhook.test` event to the tenant’s webhook (404 NOT_FOUND when none is set or it was disabled by a 410).',
    tag: 'Tenant',
    request: sendTestWebhookRequest,
    result: z.object({ event: z.object({ id: z.string(), type: z.string(), createdAt: z.string(), status: z.string() }) }),
    requestExample: {},
    resultExample: { event: { id: 'msg_2b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e', type: 'webhook.test', createdAt: `${day(0)}T09:00:00.000Z`, status: 'pending' } },
  },
};

const platformName = z.enum(['social', 'searchads', 'professional']);
const connectionData = z.object({ userId: z.string(), platform: platformName, status: z.string() });
const audienceJobData = z.object({
  jobId: z.string(),
  userId: z.string(),
  type: z.string(),
  status: z.string(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/** The body's `data` of each webhook event type (DESIGN.md "Webhooks"), for the document's `webhooks`. */
/** The routes a person's browser follows while connecting (no API key; redirects and HTML pages). */
export interface BrowserRouteDoc {
  summary: string;
  description: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  responses: Record<string, string>;
}

export const browserRouteDocs: Record<string, BrowserRouteDoc> = {
  connect_start: {
    summary: 'Open a connect link',
    description: 'Sets the browser’s binding cookie (HttpOnly, SameSite=Lax) and redirects to the platform’s consent screen with a fresh one-time state (10 minutes).',
    responses: { '302': 'To the platform’s consent screen; or, for a link already completed or past its 24 hours, back to the redirect URI with `status=error&error=expired`.', '400': 'An HTML page: the link is not known.' },
  },
  connect_callback: {
    summary: 'Platform callback',
    description: 'Where each platform sends the person back; register `{PUBLIC_BASE_URL}/auth/callback/{platform}` in the platform’s app. Spends the state, exchanges the code once, and finds the ad accounts the person can reach.',
    query: { code: 'The authorization code (on consent).', state: 'The one-time state of the consent URL.', error: 'The platform’s refusal (on denial).' },
    responses: { '302': 'Back to the redirect URI with the outcome, or to the account picker when there are several accounts.', '400': 'An HTML page: the state cannot be tied to a link started in this browser.' },
  },
  show_account_picker: {
    summary: 'Account picker',
    description: 'A small self-contained page (no outside assets; CSP `default-src \'self\'`) listing the ad accounts (and, for social, the Pages) to choose from.',
    responses: { '200': 'The picker.', '302': 'Back to the redirect URI with `error=expired` once the choice was made or its 15 minutes passed.', '400': 'An HTML page: not this browser’s choice.' },
  },
  choose_account: {
    summary: 'Choose an account',
    description: 'Stores the connection for the chosen account and sends the person back.',
    form: { accountId: 'One of the offered, available accounts.', pageId: 'For social: one of the offered Pages.' },
    responses: { '302': 'Back to the redirect URI with `status=connected`.', '400': 'The picker again, saying what to choose.' },
  },
};

export const webhookEventDocs: Record<string, { summary: string; data: z.ZodType; example: Record<string, unknown> }> = {
  'connection.connected': { summary: 'A user connected a platform through a connect link.', data: connectionData, example: { userId: 'alice', platform: 'social', status: 'active' } },
  'connection.reconnect_required': { summary: 'A connection’s grant expired or was revoked: send the user a new connect link.', data: connectionData, example: { userId: 'alice', platform: 'searchads', status: 'reconnect_required' } },
  'connection.disconnected': { summary: 'A connection was removed.', data: connectionData, example: { userId: 'alice', platform: 'professional', status: 'disconnected' } },
  'audience_job.succeeded': { summary: 'An audience job ended with the audience built.', data: audienceJobData, example: { jobId: 'job_1', userId: 'alice', type: 'social_audience', status: 'succeeded', result: { audienceId: '23851234567890123' } } },
  'audience_job.failed': { summary: 'An audience job ended without the audience.', data: audienceJobData, example: { jobId: 'job_1', userId: 'alice', type: 'social_audience', status: 'failed', error: { code: 'PLATFORM_REJECTED', message: 'The platform refused the list.' } } },
  'webhook.test': { summary: 'Sent by send_test_webhook.', data: z.object({ message: z.string() }), example: { message: 'A test event: your webhook endpoint is reachable and verifies our signature.' } },
};
