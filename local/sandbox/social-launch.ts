import { clock } from '../../shared/core/clock.ts';
import { accountOf, type CampaignWorld, findCampaign, graphErrorBody } from './social-campaigns.ts';
import type { LaunchKind, LaunchObject } from './social-campaigns.ts';
import type { Row } from './social-data.ts';
import type { SandboxResponse } from './server.ts';

/**
 * What a whole-campaign launch makes on the social sandbox (docs/platforms.md, "Social: launching a
 * campaign"): ad sets, creatives and ads beside the campaigns of social-campaigns.ts, each checked as
 * the platform checks it (the objective and optimization-goal table, promoted objects, the Advantage
 * audience flag, a budget on both levels, Pages the user may advertise for, media that exist and are
 * ready), `DELETE /{id}` of each (a campaign's children go with it), and the edges a read-back uses
 * with `filtering` (name EQUAL or CONTAIN, created_time GREATER_THAN in UNIX seconds).
 */
export type { LaunchKind, LaunchObject } from './social-campaigns.ts';

/** The goals each objective takes, and the promoted object each goal needs. */
const GOALS_OF: Record<string, string[]> = {
  OUTCOME_AWARENESS: ['REACH', 'IMPRESSIONS', 'THRUPLAY'],
  OUTCOME_TRAFFIC: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'IMPRESSIONS', 'REACH'],
  OUTCOME_ENGAGEMENT: ['POST_ENGAGEMENT', 'THRUPLAY', 'IMPRESSIONS', 'REACH'],
  OUTCOME_LEADS: ['LEAD_GENERATION', 'OFFSITE_CONVERSIONS', 'QUALITY_LEAD'],
  OUTCOME_SALES: ['OFFSITE_CONVERSIONS', 'VALUE'],
  OUTCOME_APP_PROMOTION: ['APP_INSTALLS'],
};
export const OBJECTIVES = Object.keys(GOALS_OF);
const SPECIAL_CATEGORIES = [
  'NONE',
  'EMPLOYMENT',
  'HOUSING',
  'CREDIT',
  'ISSUES_ELECTIONS_POLITICS',
  'ONLINE_GAMBLING_AND_GAMING',
  'FINANCIAL_PRODUCTS_SERVICES',
];
/** goals whose minimum is the account's low-frequency one (minimum_budgets' min_daily_budget_low_freq) */
const LOW_FREQUENCY_GOALS = new Set(['OFFSITE_CONVERSIONS', 'LEAD_GENERATION', 'VALUE', 'QUALITY_LEAD']);
const LOW_FREQUENCY_MINIMUM_USD_CENTS = 4000;
/** an ad stays in review this long after it is made */
const REVIEW_SECONDS = 60;

const invalid = (message: string, extra: Row = {}) => graphErrorBody(100, message, extra);

function parseJson<T>(value: unknown, name: string): T | SandboxResponse {
  if (typeof value !== 'string') return (value ?? undefined) as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return invalid(`(#100) param ${name} must be JSON`);
  }
}
const isAnswer = (value: unknown): value is SandboxResponse => typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

function validateOnly(params: Row): boolean {
  const options = parseJson<unknown>(params.execution_options, 'execution_options');
  return Array.isArray(options) && options.includes('validate_only');
}

function newObject(world: CampaignWorld & { objects: Map<string, LaunchObject> }, kind: LaunchKind, account: string, fields: Row, parent?: string) {
  const prefix = { adset: '1202109881', creative: '1202109882', ad: '1202109883' }[kind];
  const now = clock.now();
  const object: LaunchObject = {
    id: `${prefix}${String(world.nextId++).padStart(8, '0')}`,
    kind,
    account,
    createdAtMs: now,
    created_time: stamp(now),
    updated_time: stamp(now),
    ...(parent ? { parent } : {}),
    ...fields,
  };
  world.objects.set(String(object.id), object);
  return { status: 200, body: { id: object.id } };
}

export type LaunchWorld = CampaignWorld & { objects: Map<string, LaunchObject> };

/** The checks of `POST act_{id}/campaigns` a launch meets (the campaign itself is made by createCampaign). */
export function checkNewCampaign(params: Row): SandboxResponse | undefined {
  const objective = String(params.objective ?? '');
  if (!OBJECTIVES.includes(objective))
    return invalid(`(#100) Param objective must be one of {${OBJECTIVES.join(', ')}}`, { error_subcode: 1885994, error_user_title: 'Invalid Objective' });
  const categories = parseJson<unknown>(params.special_ad_categories, 'special_ad_categories');
  if (isAnswer(categories)) return categories;
  if (!Array.isArray(categories)) return invalid('(#100) param special_ad_categories must be an array');
  const unknown = categories.find((category) => !SPECIAL_CATEGORIES.includes(String(category)));
  if (unknown !== undefined) return invalid(`(#100) Param special_ad_categories[0] must be one of {${SPECIAL_CATEGORIES.join(', ')}}`);
  const declared = categories.filter((category) => category !== 'NONE');
  const countries = parseJson<unknown>(params.special_ad_category_country, 'special_ad_category_country');
  if (isAnswer(countries)) return countries;
  if (declared.length > 0 && (!Array.isArray(countries) || countries.length === 0))
    return invalid('(#100) special_ad_category_country is required for campaigns with a special ad category', {
      error_subcode: 2446404,
      error_user_title: 'Special Ad Category Country Required',
      error_user_msg: 'Select the countries where your ads with a special ad category will run.',
    });
  const budgeted = ['daily_budget', 'lifetime_budget'].some((field) => params[field] !== undefined && String(params[field]) !== '0');
  if (!budgeted && params.is_adset_budget_sharing_enabled === undefined)
    return invalid('Invalid parameter', {
      error_subcode: 4834011,
      error_user_title: 'Must specify True or False in is_adset_budget_sharing_enabled field',
      error_user_msg: 'Must specify True or False in is_adset_budget_sharing_enabled field when not using campaign budget.',
    });
  return undefined;
}

export const campaignValidateOnly = (params: Row): SandboxResponse | undefined => (validateOnly(params) ? { status: 200, body: { success: true } } : undefined);

interface Targeting {
  geo_locations?: Record<string, unknown[]>;
  age_min?: number;
  age_max?: number;
  genders?: number[];
  targeting_automation?: { advantage_audience?: number };
}

/** `POST act_{id}/adsets`. */
export function createAdSet(world: LaunchWorld, account: string, params: Row): SandboxResponse {
  const campaign = findCampaign(world, String(params.campaign_id ?? ''));
  if (!campaign || campaign.account !== account || campaign.row.status === 'DELETED')
    return invalid(`(#100) Param campaign_id: the campaign ${String(params.campaign_id)} does not exist`, { error_subcode: 33 });
  const name = String(params.name ?? '').trim();
  if (!name) return invalid('(#100) The parameter name is required');
  const goal = String(params.optimization_goal ?? '');
  const objective = String(campaign.row.objective);
  if (!(GOALS_OF[objective] ?? []).includes(goal))
    return invalid('Invalid parameter', {
      error_subcode: 2490408,
      error_user_title: 'Performance goal is not valid for this objective',
      error_user_msg: `The performance goal ${goal} is not available for campaigns with the objective ${objective}.`,
      error_data: JSON.stringify({ blame_field_specs: [['optimization_goal']] }),
    });
  const promoted = parseJson<Row | undefined>(params.promoted_object, 'promoted_object');
  if (isAnswer(promoted)) return promoted;
  const needsPixel = goal === 'OFFSITE_CONVERSIONS' || goal === 'VALUE';
  if ((needsPixel && !(promoted?.pixel_id && promoted.custom_event_type)) || (goal === 'LEAD_GENERATION' && !promoted?.page_id))
    return invalid('Invalid parameter', { error_subcode: 1815430, error_user_title: 'Please select a promoted object for your ad set' });
  if (String(params.billing_event ?? '') !== 'IMPRESSIONS' && !(goal === 'THRUPLAY' && params.billing_event === 'THRUPLAY'))
    return invalid('(#100) Param billing_event must be IMPRESSIONS for this optimization goal');
  const campaignBudget = Number(campaign.row.daily_budget ?? 0) > 0 || Number(campaign.row.lifetime_budget ?? 0) > 0;
  if (campaignBudget && (params.daily_budget !== undefined || params.lifetime_budget !== undefined || params.bid_strategy !== undefined))
    return invalid('Invalid parameter', { error_subcode: 1885621, error_user_title: 'Budget Conflict: Campaign Already Has a Budget' });
  const { currency } = accountOf(world, account);
  if (campaignBudget && LOW_FREQUENCY_GOALS.has(goal) && currency === 'USD' && Number(campaign.row.daily_budget ?? 0) < LOW_FREQUENCY_MINIMUM_USD_CENTS)
    return invalid('Invalid parameter', {
      error_subcode: 1885272,
      error_user_title: 'Budget Is Too Low',
      error_user_msg: `Your budget must be at least $${(LOW_FREQUENCY_MINIMUM_USD_CENTS / 100).toFixed(2)} USD per day for this performance goal.`,
    });
  const targeting = parseJson<Targeting | undefined>(params.targeting, 'targeting');
  if (isAnswer(targeting)) return targeting;
  if (!targeting?.geo_locations || Object.values(targeting.geo_locations).every((list) => !Array.isArray(list) || list.length === 0))
    return invalid('(#100) Targeting spec requires geo_locations', { error_subcode: 1487756, error_user_title: 'Locations Are Required' });
  const advantage = targeting.targeting_automation?.advantage_audience;
  if (advantage !== 0 && advantage !== 1)
    return invalid('Invalid parameter', {
      error_subcode: 1870227,
      error_user_title: 'Advantage Audience Flag Required',
      error_user_msg: 'To create your ad set, you need to enable or disable the Advantage audience feature.',
    });
  const ageMin = targeting.age_min ?? 18;
  const ageMax = targeting.age_max ?? 65;
  if (ageMin < 18 || ageMax > 65 || ageMin > ageMax) return invalid('(#100) age_min and age_max must be within 18 and 65');
  if (advantage === 1 && (ageMax < 65 || ageMin > 25))
    return invalid('Invalid parameter', { error_subcode: 1870189, error_user_title: 'Maximum age is below threshold' });
  const categories = parseJson<string[]>(campaign.row.special_ad_categories ?? '[]', 'special_ad_categories');
  if (Array.isArray(categories) && categories.some((category) => category !== 'NONE') && (targeting.genders?.length || ageMin !== 18 || ageMax !== 65))
    return invalid('(#100) Ads with a special ad category cannot target by age or gender', { error_user_title: 'Special Ad Category Targeting' });
  const status = String(params.status ?? 'ACTIVE');
  if (!['ACTIVE', 'PAUSED'].includes(status)) return invalid('(#100) Param status must be one of {ACTIVE, PAUSED}');
  if (validateOnly(params)) return { status: 200, body: { success: true } };
  return newObject(
    world,
    'adset',
    account,
    {
      name,
      campaign_id: campaign.row.id,
      status,
      optimization_goal: goal,
      billing_event: params.billing_event,
      destination_type: params.destination_type,
      ...(promoted ? { promoted_object: promoted } : {}),
      targeting,
      ...(params.start_time ? { start_time: params.start_time } : {}),
      ...(params.end_time ? { end_time: params.end_time } : {}),
    },
    String(campaign.row.id),
  );
}

interface StorySpec {
  page_id?: string;
  instagram_actor_id?: string;
  link_data?: { image_hash?: string; link?: string; call_to_action?: { type?: string; value?: Row } };
  video_data?: { video_id?: string; image_url?: string; image_hash?: string };
}

/** What a creative's media must be: an image of the account, or one of its videos that is ready. */
export interface MediaCheck {
  imageKnown(account: string, hash: string): boolean;
  videoReady(account: string, id: string): boolean;
  pageAllowed(pageId: string): boolean;
}

/** `POST act_{id}/adcreatives`. */
export function createCreative(world: LaunchWorld, account: string, params: Row, media: MediaCheck): SandboxResponse {
  const spec = parseJson<StorySpec | undefined>(params.object_story_spec, 'object_story_spec');
  if (isAnswer(spec)) return spec;
  if (!spec?.page_id) return invalid('(#100) object_story_spec requires page_id');
  if (spec.instagram_actor_id !== undefined) return invalid('(#100) Param instagram_actor_id is no longer supported; use instagram_user_id');
  if (!media.pageAllowed(spec.page_id))
    return invalid('Invalid parameter', {
      error_subcode: 1487202,
      error_user_title: 'Only Admins Can Run Ads for Pages',
      error_user_msg: 'You must be an admin of the Page to run ads for it.',
    });
  const freedom = parseJson<Row | undefined>(params.degrees_of_freedom_spec, 'degrees_of_freedom_spec');
  if (isAnswer(freedom)) return freedom;
  if (JSON.stringify(freedom ?? {}).includes('standard_enhancements'))
    return invalid('Invalid parameter', { error_subcode: 3858504, error_user_title: 'Standard Enhancements Deprecated' });
  if (spec.link_data) {
    if (!spec.link_data.image_hash || !media.imageKnown(account, spec.link_data.image_hash))
      return invalid(`(#100) Image with hash ${spec.link_data.image_hash} not found in the ad account`, {
        error_subcode: 1487242,
        error_user_title: 'Image Not Found',
      });
    if (!spec.link_data.link) return invalid('(#100) link_data requires link');
  } else if (spec.video_data) {
    if (!spec.video_data.video_id || !media.videoReady(account, spec.video_data.video_id))
      return invalid(`(#100) The video ${spec.video_data.video_id} is not ready or not in the ad account`, {
        error_subcode: 1885252,
        error_user_title: 'Video Not Ready',
      });
    if (Boolean(spec.video_data.image_url) === Boolean(spec.video_data.image_hash))
      return invalid('(#100) video_data needs exactly one of image_url and image_hash (the thumbnail)');
  } else return invalid('(#100) object_story_spec needs link_data or video_data');
  if (validateOnly(params)) return { status: 200, body: { success: true } };
  return newObject(world, 'creative', account, { name: String(params.name ?? ''), object_story_spec: spec, status: 'ACTIVE' });
}

/** `POST act_{id}/ads`. */
export function createAd(world: LaunchWorld, account: string, params: Row): SandboxResponse {
  const adSet = world.objects.get(String(params.adset_id ?? ''));
  if (adSet?.kind !== 'adset' || adSet.account !== account || adSet.status === 'DELETED')
    return invalid(`(#100) Param adset_id: the ad set ${String(params.adset_id)} does not exist`, { error_subcode: 33 });
  const creativeRef = parseJson<{ creative_id?: string } | undefined>(params.creative, 'creative');
  if (isAnswer(creativeRef)) return creativeRef;
  const creative = world.objects.get(String(creativeRef?.creative_id ?? ''));
  if (creative?.kind !== 'creative' || creative.account !== account)
    return invalid(`(#100) Param creative: the creative ${String(creativeRef?.creative_id)} does not exist`, { error_subcode: 33 });
  if (adSet.optimization_goal === 'POST_ENGAGEMENT' && !(adSet.promoted_object as Row | undefined)?.page_id)
    return invalid('Invalid parameter', { error_subcode: 1885154, error_user_title: 'Ad Set with Promoted Object Is Required' });
  const name = String(params.name ?? '').trim();
  if (!name) return invalid('(#100) The parameter name is required');
  const status = String(params.status ?? 'ACTIVE');
  if (!['ACTIVE', 'PAUSED'].includes(status)) return invalid('(#100) Param status must be one of {ACTIVE, PAUSED}');
  if (validateOnly(params)) return { status: 200, body: { success: true } };
  return newObject(world, 'ad', account, { name, adset_id: adSet.id, campaign_id: adSet.campaign_id, creative: { id: creative.id }, status }, String(adSet.id));
}

/** An object's delivery as the platform shows it: a PAUSED parent holds its children; a new ad is in review. */
export function effectiveStatus(world: LaunchWorld, object: LaunchObject): string {
  if (object.status === 'DELETED') return 'DELETED';
  const campaign = findCampaign(world, String(object.campaign_id ?? ''));
  if (campaign?.row.status === 'DELETED') return 'DELETED';
  if (object.kind === 'ad' && clock.now() - object.createdAtMs < REVIEW_SECONDS * 1000) return 'PENDING_REVIEW';
  if (object.status === 'PAUSED') return 'PAUSED';
  if (campaign && campaign.row.status !== 'ACTIVE') return 'CAMPAIGN_PAUSED';
  if (object.kind === 'ad' && world.objects.get(String(object.adset_id))?.status === 'PAUSED') return 'ADSET_PAUSED';
  return 'ACTIVE';
}

/** `DELETE /{id}` of an ad set, creative or ad (a campaign's delete is social-campaigns.ts's); undefined: not one of these. */
export function deleteLaunchObject(world: LaunchWorld, id: string): SandboxResponse | undefined {
  const object = world.objects.get(id);
  if (!object) return undefined;
  if (object.status === 'DELETED') return invalid(`(#100) Cannot delete a deleted object.`, { error_subcode: 1487056 });
  object.status = 'DELETED';
  object.updated_time = stamp(clock.now());
  return { status: 200, body: { success: true } };
}

/** `POST /{id}` with `status` on an ad set or ad; undefined: not one of these. */
export function updateLaunchObject(world: LaunchWorld, id: string, params: Row): SandboxResponse | undefined {
  const object = world.objects.get(id);
  if (!object || object.kind === 'creative') return object ? invalid('(#100) A creative has no status to set') : undefined;
  if (object.status === 'DELETED') return invalid('(#100) Cannot edit a deleted object.', { error_subcode: 1487056 });
  const status = String(params.status ?? '');
  if (!['ACTIVE', 'PAUSED', 'DELETED'].includes(status)) return invalid('(#100) Param status must be one of {ACTIVE, PAUSED, DELETED}');
  object.status = status;
  return { status: 200, body: { success: true } };
}

/** The node as a read shows it. */
export function launchObjectRow(world: LaunchWorld, object: LaunchObject): Row {
  const { kind: _kind, account, parent: _parent, createdAtMs: _created, ...row } = object;
  return { ...row, account_id: account, effective_status: effectiveStatus(world, object), configured_status: row.status };
}

interface Filter {
  field?: string;
  operator?: string;
  value?: unknown;
}

/** The rows an edge's `filtering` keeps; an answer when the filter itself is refused. */
export function filtered(rows: Row[], raw: unknown): Row[] | SandboxResponse {
  if (raw === undefined) return rows;
  const filters = parseJson<Filter[]>(raw, 'filtering');
  if (isAnswer(filters)) return filters;
  if (!Array.isArray(filters)) return invalid('(#100) param filtering must be an array');
  let kept = rows;
  for (const filter of filters) {
    const field = String(filter.field ?? '');
    const operator = String(filter.operator ?? '');
    if (!['name', 'created_time', 'effective_status', 'id'].includes(field)) return invalid(`(#100) Filtering field ${field} is invalid`);
    if (field === 'created_time') {
      if (!['GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN'].includes(operator))
        return invalid(`(#100) Filter operator ${operator} is not supported for created_time`);
      const seconds = Number(filter.value);
      if (!Number.isFinite(seconds)) return invalid('(#100) created_time filters take UNIX seconds');
      kept = kept.filter((row) => {
        const at = Date.parse(String(row.created_time).replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) / 1000;
        return operator === 'LESS_THAN' ? at < seconds : operator === 'GREATER_THAN' ? at > seconds : at >= seconds;
      });
      continue;
    }
    const value = filter.value;
    if (operator === 'EQUAL') kept = kept.filter((row) => String(row[field]) === String(value));
    else if (operator === 'CONTAIN') kept = kept.filter((row) => String(row[field]).includes(String(value)));
    else if (operator === 'IN' && Array.isArray(value)) kept = kept.filter((row) => value.map(String).includes(String(row[field])));
    else return invalid(`(#100) Filter operator ${operator} is not supported`);
  }
  return kept;
}

/** The children of a campaign (its ad sets) or of an ad set (its ads) that are not deleted. */
export function childrenOf(world: LaunchWorld, parent: string, kind: 'adset' | 'ad'): Row[] {
  return [...world.objects.values()]
    .filter((object) => object.kind === kind && object.parent === parent && effectiveStatus(world, object) !== 'DELETED')
    .map((object) => launchObjectRow(world, object));
}
