import { clock } from '../../shared/core/clock.ts';
import {
  checkBudget,
  currencyOf,
  finderPage as page,
  getCampaign,
  idOfUrn,
  parseSearch,
  type ProfessionalCampaigns,
  seedAccount,
} from './professional-campaigns.ts';
import { inputError, restliError } from './professional-restli.ts';
import { type MediaState, mediaView } from './professional-media.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * What a whole-campaign launch meets on the professional sandbox (docs/platforms.md, "Professional:
 * launching a campaign"): campaign groups, campaigns with the platform's validation (singular
 * objective symbols, each objective's goal and cost types, format, locale, targeting, the required
 * `offsiteDeliveryEnabled` and `politicalIntent`, the currency's minimum), creatives made inline with
 * their post (`createInline`: 200 with `value.creative`, no id header), the finders a read-back uses,
 * DRAFT-only deletes and the activation rules (a campaign goes ACTIVE only under an ACTIVE group, with
 * a creative).
 */
type Row = Record<string, unknown>;

const OBJECTIVES: Record<string, { goals: string[]; costTypes: string[] }> = {
  BRAND_AWARENESS: { goals: ['NONE', 'MAX_IMPRESSION', 'TARGET_COST_PER_IMPRESSION', 'CAP_COST_AND_MAXIMIZE_IMPRESSIONS'], costTypes: ['CPM'] },
  WEBSITE_VISIT: { goals: ['NONE', 'MAX_CLICK'], costTypes: ['CPM', 'CPC'] },
  ENGAGEMENT: { goals: ['NONE', 'MAX_CLICK'], costTypes: ['CPM', 'CPC'] },
  LEAD_GENERATION: { goals: ['NONE', 'MAX_LEAD'], costTypes: ['CPM', 'CPC'] },
  VIDEO_VIEW: { goals: ['NONE', 'MAX_VIDEO_VIEW'], costTypes: ['CPM', 'CPV'] },
  WEBSITE_CONVERSION: { goals: ['NONE', 'MAX_CONVERSION'], costTypes: ['CPM', 'CPC'] },
};
const LOCALES = new Set(['en_US', 'de_DE', 'fr_FR', 'es_ES', 'it_IT', 'pt_BR', 'nl_NL', 'ja_JP', 'zh_CN', 'sv_SE', 'pl_PL', 'tr_TR', 'ko_KR']);
/** how far in the past a start may be (the platform's and the client's clocks disagree a little) */
const START_SLACK_MS = 10 * 60_000;
const MAX_CREATIVES_PER_CAMPAIGN = 100;

const enumError = (field: string, value: unknown) =>
  restliError(422, {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: 'Multiple errors occurred during the input validation. Please see errorDetails for more information.',
    errorDetails: {
      inputErrors: [
        {
          description: 'Invalid value for field; wrong type or other syntax error',
          input: { inputPath: { fieldPath: `/${field}` } },
          code: `ERROR :: /${field} :: "${String(value)}" is not an enum symbol`,
        },
      ],
    },
  });

const stamp = () => ({ created: { time: clock.now() }, lastModified: { time: clock.now() } });
/** `runSchedule`: a start (epoch ms, not in the past), and an end after it when given. */
function checkSchedule(value: unknown): SandboxResponse | undefined {
  const schedule = value as { start?: unknown; end?: unknown } | undefined;
  if (typeof schedule?.start !== 'number') return inputError('REQUIRED_FIELD_MISSING', 'runSchedule.start is required', '/runSchedule/start');
  if (schedule.start < clock.now() - START_SLACK_MS) return inputError('INVALID_VALUE', 'runSchedule.start must not be in the past', '/runSchedule/start');
  if (schedule.end !== undefined && (typeof schedule.end !== 'number' || schedule.end <= schedule.start))
    return inputError('INVALID_VALUE', 'runSchedule.end must be after its start', '/runSchedule/end');
  return undefined;
}

export function createGroup(world: ProfessionalCampaigns, request: SandboxRequest, account: string): SandboxResponse {
  seedAccount(world, account);
  const body = request.fields as Row;
  if (body.account !== `urn:li:sponsoredAccount:${account}`) return inputError('INVALID_VALUE', 'account must be the account in the path', '/account');
  if (typeof body.name !== 'string' || !body.name || body.name.length > 100)
    return inputError('INVALID_VALUE', 'name is required, at most 100 characters', '/name');
  if (!['DRAFT', 'ACTIVE'].includes(String(body.status))) return inputError('INVALID_VALUE', 'A new campaign group is DRAFT or ACTIVE.', '/status');
  const schedule = checkSchedule(body.runSchedule);
  if (schedule) return schedule;
  const id = 700000000 + world.nextId++;
  world.groups.set(`${account}/${id}`, { ...body, id, changeAuditStamps: stamp(), test: false });
  return { status: 201, body: null, headers: { 'x-restli-id': String(id), 'x-linkedin-id': String(id) } };
}

/** `POST …/adCampaigns`: a campaign under one of the account's groups, as a launch makes it. */
export function createLaunchCampaign(world: ProfessionalCampaigns, request: SandboxRequest, account: string): SandboxResponse {
  seedAccount(world, account);
  const body = request.fields as Row;
  if (body.account !== `urn:li:sponsoredAccount:${account}`) return inputError('INVALID_VALUE', 'account must be the account in the path', '/account');
  const groupId = idOfUrn(body.campaignGroup, 'sponsoredCampaignGroup');
  const group = groupId ? world.groups.get(`${account}/${groupId}`) : undefined;
  if (!group) return inputError('INVALID_VALUE', 'campaignGroup must be a campaign group of this account', '/campaignGroup');
  if (typeof body.name !== 'string' || !body.name || body.name.length > 100)
    return inputError('INVALID_VALUE', 'name is required, at most 100 characters', '/name');
  if (body.type !== 'SPONSORED_UPDATES') return enumError('type', body.type);
  if (!['STANDARD_UPDATE', 'SINGLE_VIDEO'].includes(String(body.format))) return enumError('format', body.format);
  const objective = OBJECTIVES[String(body.objectiveType)];
  if (!objective) return enumError('objectiveType', body.objectiveType);
  if (!objective.goals.includes(String(body.optimizationTargetType)))
    return inputError('INVALID_VALUE', `${String(body.optimizationTargetType)} is not a goal of ${String(body.objectiveType)}`, '/optimizationTargetType');
  if (!objective.costTypes.includes(String(body.costType)))
    return inputError('INVALID_VALUE', `${String(body.costType)} is not a cost type of ${String(body.objectiveType)}`, '/costType');
  if (body.objectiveType === 'VIDEO_VIEW' && body.format !== 'SINGLE_VIDEO') return inputError('INVALID_VALUE', 'VIDEO_VIEW needs SINGLE_VIDEO', '/format');
  if (typeof body.offsiteDeliveryEnabled !== 'boolean')
    return inputError('REQUIRED_FIELD_MISSING', 'offsiteDeliveryEnabled is required', '/offsiteDeliveryEnabled');
  if (!['POLITICAL', 'NOT_POLITICAL', 'NOT_DECLARED'].includes(String(body.politicalIntent)))
    return inputError('REQUIRED_FIELD_MISSING', 'politicalIntent is required', '/politicalIntent');
  if (!idOfUrn(body.associatedEntity, 'organization')) return inputError('INVALID_VALUE', 'associatedEntity must be an organization', '/associatedEntity');
  const locale = body.locale as { country?: string; language?: string } | undefined;
  if (!LOCALES.has(`${locale?.language}_${locale?.country}`)) return inputError('INVALID_VALUE', 'locale is not a supported locale', '/locale');
  const facets = (((body.targetingCriteria as Row | undefined)?.include as Row | undefined)?.and ?? []) as Array<{ or?: Record<string, unknown[]> }>;
  const facetNames = facets.flatMap((facet) => Object.keys(facet.or ?? {}));
  if (!facetNames.includes('urn:li:adTargetingFacet:locations') || !facetNames.includes('urn:li:adTargetingFacet:interfaceLocales'))
    return inputError('INVALID_VALUE', 'targetingCriteria must include locations and interfaceLocales', '/targetingCriteria');
  if (!['DRAFT', 'ACTIVE', 'PAUSED'].includes(String(body.status))) return inputError('INVALID_VALUE', 'A new campaign is ACTIVE, PAUSED or DRAFT.', '/status');
  const schedule = checkSchedule(body.runSchedule);
  if (schedule) return schedule;
  const budget = checkBudget(body.dailyBudget, account);
  if (typeof budget !== 'string') return budget;
  const id = 610000000 + world.nextId++;
  world.campaigns.set(`${account}/${id}`, {
    ...body,
    id,
    dailyBudget: { amount: budget, currencyCode: currencyOf(account) },
    changeAuditStamps: stamp(),
    version: { versionTag: '1' },
  });
  return { status: 201, body: null, headers: { 'x-restli-id': String(id), 'x-linkedin-id': String(id) } };
}

/** `GET …/adCampaignGroups?q=search&search=(name:…,status:…)`: exact names (values percent-encoded), oldest first unless DESCENDING. */
export function searchGroups(world: ProfessionalCampaigns, account: string, request: SandboxRequest): SandboxResponse {
  const search = parseSearch(request.rawQuery);
  if (request.query.get('q') !== 'search' || !search)
    return restliError(400, { code: 'ILLEGAL_ARGUMENT', message: 'q=search with search=(name:(values:List(…)),…) and each value percent-encoded' });
  const all = [...world.groups.entries()]
    .filter(([key]) => key.startsWith(`${account}/`))
    .map(([, group]) => group)
    .filter((group) => (!search.name || search.name.includes(String(group.name))) && (!search.status || search.status.includes(String(group.status))));
  return page(all, request.query);
}

export function getGroup(world: ProfessionalCampaigns, account: string, id: string): SandboxResponse {
  const group = world.groups.get(`${account}/${id}`);
  return group ? { status: 200, body: group } : restliError(404, { code: 'NOT_FOUND', message: `Campaign group ${id} does not exist in account ${account}` });
}

/** A PARTIAL_UPDATE of a group's status. */
export function updateGroup(world: ProfessionalCampaigns, request: SandboxRequest, account: string, id: string): SandboxResponse {
  if (request.headers['x-restli-method'] !== 'PARTIAL_UPDATE')
    return restliError(400, { serviceErrorCode: 100, code: 'METHOD_NOT_ALLOWED', message: 'A group is changed with X-RestLi-Method: PARTIAL_UPDATE.' });
  const group = world.groups.get(`${account}/${id}`);
  if (!group) return getGroup(world, account, id);
  const set = (request.fields as { patch?: { $set?: Row } }).patch?.$set ?? {};
  const unknown = Object.keys(set).find((field) => !['status', 'name'].includes(field));
  if (unknown || Object.keys(set).length === 0)
    return inputError('FIELD_NOT_UPDATABLE', `The field ${unknown ?? '(none)'} cannot be changed here.`, `/${unknown ?? ''}`);
  if (set.status !== undefined && !['ACTIVE', 'PAUSED', 'ARCHIVED', 'PENDING_DELETION'].includes(String(set.status)))
    return inputError('INVALID_STATUS_TRANSITION', `A group cannot be set ${String(set.status)}`, '/status');
  Object.assign(group, set);
  return { status: 204, body: null };
}

/** DELETE of a group: only a DRAFT goes, with its campaigns and their creatives (all drafts); any other is refused. */
export function deleteGroup(world: ProfessionalCampaigns, account: string, id: string): SandboxResponse {
  const group = world.groups.get(`${account}/${id}`);
  if (!group) return getGroup(world, account, id);
  if (group.status !== 'DRAFT') return inputError('INVALID_STATUS', 'Only Campaign Groups in DRAFT status can be deleted', '/status');
  const urn = `urn:li:sponsoredCampaignGroup:${id}`;
  if ([...world.campaigns.values()].some((campaign) => campaign.campaignGroup === urn && campaign.status !== 'DRAFT'))
    return inputError('INVALID_STATUS', 'The group holds campaigns that are not drafts', '/status');
  world.groups.delete(`${account}/${id}`);
  return { status: 204, body: null };
}

/** `creatives?action=createInline`: the creative and its dark post; 200 `{"value":{"creative":"urn:…"}}`, no id header. */
export function createInline(world: ProfessionalCampaigns, media: MediaState, request: SandboxRequest, account: string, canPost: boolean): SandboxResponse {
  const creative = (request.fields as { creative?: Row }).creative;
  if (!creative) return inputError('REQUIRED_FIELD_MISSING', 'creative is required', '/creative');
  const campaignId = idOfUrn(creative.campaign, 'sponsoredCampaign');
  const found = campaignId ? getCampaign(world, account, campaignId) : undefined;
  if (found?.status !== 200) return inputError('INVALID_VALUE', 'creative.campaign must be a campaign of this account', '/creative/campaign');
  const campaign = found.body as Row;
  if (!['DRAFT', 'ACTIVE', 'PAUSED'].includes(String(creative.intendedStatus))) return enumError('creative/intendedStatus', creative.intendedStatus);
  const post = (creative.inlineContent as { post?: Row } | undefined)?.post;
  if (!post) return inputError('REQUIRED_FIELD_MISSING', 'inlineContent.post is required', '/creative/inlineContent/post');
  const author = String(post.author ?? '');
  if (!idOfUrn(author, 'organization')) return inputError('INVALID_VALUE', 'post.author must be an organization', '/creative/inlineContent/post/author');
  if (!canPost)
    return restliError(403, {
      serviceErrorCode: 100,
      code: 'ACCESS_DENIED',
      message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20260801',
    });
  if ((post.adContext as Row | undefined)?.dscAdAccount !== `urn:li:sponsoredAccount:${account}`)
    return inputError('INVALID_VALUE', 'adContext.dscAdAccount must be this account', '/creative/inlineContent/post/adContext/dscAdAccount');
  if (typeof post.commentary !== 'string' || post.commentary.length > 3000)
    return inputError('INVALID_VALUE', 'commentary must be text of at most 3000 characters', '/creative/inlineContent/post/commentary');
  const content = (post.content as { media?: { id?: string; title?: string } } | undefined)?.media;
  const item = content?.id ? mediaView(media, content.id) : undefined;
  const mediaPath = '/creative/inlineContent/post/content/media/id';
  if (!item) return inputError('INVALID_VALUE', `Media ${String(content?.id)} does not exist`, mediaPath);
  if (item.status !== 'AVAILABLE') return inputError('INVALID_VALUE', `Media ${String(content?.id)} is ${item.status}`, mediaPath);
  if (item.owner !== author) return inputError('INVALID_VALUE', `Media ${String(content?.id)} is not owned by the author`, mediaPath);
  if ((item.kind === 'video') !== (campaign.format === 'SINGLE_VIDEO'))
    return inputError('INVALID_VALUE', `A ${item.kind} creative does not match the campaign's format ${String(campaign.format)}`, mediaPath);
  if (typeof content?.title === 'string' && content.title.length > 200)
    return inputError('INVALID_VALUE', 'title must be at most 200 characters', '/creative/inlineContent/post/content/media/title');
  if (campaign.objectiveType === 'LEAD_GENERATION' && !idOfUrn((creative.leadgenCallToAction as Row | undefined)?.destination, 'adForm'))
    return inputError('REQUIRED_FIELD_MISSING', 'A lead generation creative needs leadgenCallToAction with an adForm', '/creative/leadgenCallToAction');
  if (campaign.objectiveType === 'WEBSITE_VISIT' && typeof post.contentLandingPage !== 'string')
    return inputError('REQUIRED_FIELD_MISSING', 'A website visit creative needs contentLandingPage', '/creative/inlineContent/post/contentLandingPage');
  const urn = String(creative.campaign);
  if ([...world.creatives.values()].filter((row) => row.campaign === urn).length >= MAX_CREATIVES_PER_CAMPAIGN)
    return inputError('LIMIT_EXCEEDED', 'A campaign holds at most 100 creatives', '/creative/campaign');
  const id = `urn:li:sponsoredCreative:${800000000 + world.nextId++}`;
  const { inlineContent: _post, ...rest } = creative;
  world.creatives.set(`${account}/${id}`, {
    ...rest,
    id,
    account: `urn:li:sponsoredAccount:${account}`,
    content: { reference: `urn:li:share:${7390000000000000000n + BigInt(world.nextId)}` },
    createdAt: clock.now(),
    lastModifiedAt: clock.now(),
    isServing: false,
  });
  return { status: 200, body: { value: { creative: id } } };
}

/** `GET …/creatives?q=criteria&campaigns=List(…)`: the campaigns' creatives. */
export function findCreatives(world: ProfessionalCampaigns, account: string, request: SandboxRequest): SandboxResponse {
  const raw = /(?:^|[?&])campaigns=List\(([^()&]*)\)/.exec(request.rawQuery)?.[1];
  if (request.query.get('q') !== 'criteria' || raw === undefined)
    return restliError(400, { code: 'ILLEGAL_ARGUMENT', message: 'q=criteria with campaigns=List(<encoded campaign URNs>)' });
  const campaigns = raw.split(',').map(decodeURIComponent);
  const all = [...world.creatives.entries()]
    .filter(([key, creative]) => key.startsWith(`${account}/`) && campaigns.includes(String(creative.campaign)))
    .map(([, creative]) => creative);
  return page(all, request.query);
}

export function getCreative(world: ProfessionalCampaigns, account: string, urn: string): SandboxResponse {
  const creative = world.creatives.get(`${account}/${urn}`);
  return creative ? { status: 200, body: creative } : restliError(404, { code: 'NOT_FOUND', message: `Creative ${urn} does not exist in account ${account}` });
}

export function updateCreative(world: ProfessionalCampaigns, request: SandboxRequest, account: string, urn: string): SandboxResponse {
  if (request.headers['x-restli-method'] !== 'PARTIAL_UPDATE')
    return restliError(400, { serviceErrorCode: 100, code: 'METHOD_NOT_ALLOWED', message: 'A creative is changed with X-RestLi-Method: PARTIAL_UPDATE.' });
  const creative = world.creatives.get(`${account}/${urn}`);
  if (!creative) return getCreative(world, account, urn);
  const set = (request.fields as { patch?: { $set?: Row } }).patch?.$set ?? {};
  if (Object.keys(set).length !== 1 || !['ACTIVE', 'PAUSED', 'ARCHIVED', 'CANCELED', 'PENDING_DELETION'].includes(String(set.intendedStatus)))
    return inputError('INVALID_VALUE', 'Only intendedStatus (ACTIVE, PAUSED, ARCHIVED, CANCELED, PENDING_DELETION) is changed here', '/intendedStatus');
  creative.intendedStatus = set.intendedStatus;
  creative.lastModifiedAt = clock.now();
  return { status: 204, body: null };
}

/** DELETE of a creative: a DRAFT, or any while its campaign is a DRAFT, goes; any other is refused (set PENDING_DELETION instead). */
export function deleteCreative(world: ProfessionalCampaigns, account: string, urn: string): SandboxResponse {
  const creative = world.creatives.get(`${account}/${urn}`);
  if (!creative) return getCreative(world, account, urn);
  const campaign = getCampaign(world, account, String(idOfUrn(creative.campaign, 'sponsoredCampaign')));
  const campaignDraft = campaign.status === 200 && (campaign.body as Row).status === 'DRAFT';
  if (creative.intendedStatus !== 'DRAFT' && !campaignDraft)
    return inputError('INVALID_STATUS', 'Update the creative to PENDING_DELETION first', '/intendedStatus');
  world.creatives.delete(`${account}/${urn}`);
  return { status: 204, body: null };
}
