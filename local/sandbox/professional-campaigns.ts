import { inputError, restliError } from './professional-restli.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';

import type { SavedMedia } from './professional-media.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * Campaigns on the professional sandbox (docs/platforms.md, "Professional: campaign control"): `GET` of an ad account and of one
 * of its campaigns, `POST` with `X-RestLi-Method: PARTIAL_UPDATE` and `{"patch":{"$set":{…}}}` for
 * `status` and `dailyBudget` (204), `DELETE` (a DRAFT goes, any other becomes PENDING_DELETION), and
 * the launch's creates and finders (professional-launch.ts). The rules: the transition table, the account's currency,
 * the currency's decimals, a minimum daily budget (10.00 USD or the same in units), and a 400 for a
 * partial update without its method header. Campaigns live per account and survive a restart.
 */
type Row = Record<string, unknown>;

export interface ProfessionalCampaigns {
  /** `${account}/${id}` → campaign */
  campaigns: Map<string, Row>;
  /** `${account}/${id}` → campaign group (the launches'; the seeded campaigns' groups are not modelled) */
  groups: Map<string, Row>;
  /** `${account}/${urn}` → creative */
  creatives: Map<string, Row>;
  nextId: number;
}

/** Accounts in other currencies (JPY whole units, KWD three decimals); any other account is USD. */
export const SANDBOX_PROFESSIONAL_CURRENCIES: Record<string, string> = { '500000002': 'JPY', '500000003': 'KWD' };
export const currencyOf = (account: string) => SANDBOX_PROFESSIONAL_CURRENCIES[account] ?? 'USD';
const DECIMALS: Record<string, number> = { JPY: 0, KWD: 3 };
const MINIMUM_DAILY: Record<string, number> = { USD: 10, JPY: 1000, KWD: 3 };
const REMOVED = new Set(['COMPLETED', 'CANCELED', 'PENDING_DELETION', 'REMOVED']);
/** who may be set from what (docs/platforms.md, "Professional: campaign control"); ARCHIVED is set by a client, and nothing comes back from it here */
const ALLOWED: Record<string, string[]> = {
  ACTIVE: ['PAUSED', 'ARCHIVED'],
  PAUSED: ['ACTIVE', 'ARCHIVED'],
  DRAFT: ['ACTIVE', 'ARCHIVED'],
};

/** Every account starts with a campaign in each state the control routes meet. */
export function seedAccount(world: ProfessionalCampaigns, account: string): void {
  if ([...world.campaigns.keys()].some((key) => key.startsWith(`${account}/`))) return;
  const currency = currencyOf(account);
  const money = (amount: number) => ({ amount: amount.toFixed(DECIMALS[currency] ?? 2), currencyCode: currency });
  const seeds: Array<[number, string, string, Row]> = [
    [600000101, 'Q4 webinar - IT decision makers', 'ACTIVE', { dailyBudget: money(50) }],
    [600000102, 'Always-on thought leadership', 'PAUSED', { dailyBudget: money(30) }],
    [600000103, 'Product launch (draft)', 'DRAFT', { dailyBudget: money(20) }],
    [600000104, 'Spring event (archived)', 'ARCHIVED', { dailyBudget: money(20) }],
    [600000105, 'Conference sponsorship', 'ACTIVE', { totalBudget: money(5000) }],
    [600000106, 'Old recruiting push', 'CANCELED', { dailyBudget: money(15) }],
  ];
  for (const [id, name, status, budget] of seeds) {
    world.campaigns.set(`${account}/${id}`, {
      account: `urn:li:sponsoredAccount:${account}`,
      campaignGroup: `urn:li:sponsoredCampaignGroup:${account}01`,
      id,
      name,
      status,
      type: 'SPONSORED_UPDATES',
      costType: 'CPM',
      objectiveType: 'WEBSITE_VISIT',
      ...budget,
      runSchedule: { start: Date.UTC(2026, 0, 5) },
      version: { versionTag: '1' },
    });
  }
}

/** Scale tests' campaigns: ACTIVE, each with a daily budget of its own, ids after the seeded ones. */
export function addCampaigns(world: ProfessionalCampaigns, account: string, count: number): string[] {
  seedAccount(world, account);
  const currency = currencyOf(account);
  const taken = [...world.campaigns.keys()].filter((key) => key.startsWith(`${account}/`)).map((key) => Number(key.split('/')[1]));
  const first = Math.max(...taken) + 1;
  return Array.from({ length: count }, (_, index) => {
    const id = first + index;
    world.campaigns.set(`${account}/${id}`, {
      account: `urn:li:sponsoredAccount:${account}`,
      campaignGroup: `urn:li:sponsoredCampaignGroup:${account}01`,
      id,
      name: `Scale ${index + 1}`,
      status: 'ACTIVE',
      type: 'SPONSORED_UPDATES',
      costType: 'CPM',
      objectiveType: 'WEBSITE_VISIT',
      dailyBudget: { amount: (25).toFixed(DECIMALS[currency] ?? 2), currencyCode: currency },
      runSchedule: { start: Date.UTC(2026, 0, 5) },
      version: { versionTag: '1' },
    });
    return String(id);
  });
}

/** The organization an ad account of the sandbox belongs to. */
export const organizationOf = (account: string) => `urn:li:organization:${2_400_000 + (Number(account) % 100_000)}`;

/** Accounts that cannot launch: one on a billing hold, one canceled. */
export const SANDBOX_HELD_ACCOUNT = '500000004';
export const SANDBOX_CANCELED_ACCOUNT = '500000005';

export function getAccount(world: ProfessionalCampaigns, account: string): SandboxResponse {
  seedAccount(world, account);
  return {
    status: 200,
    body: {
      id: Number(account),
      name: `Sandbox account ${account}`,
      currency: currencyOf(account),
      status: account === SANDBOX_CANCELED_ACCOUNT ? 'CANCELED' : 'ACTIVE',
      servingStatuses: account === SANDBOX_HELD_ACCOUNT ? ['BILLING_HOLD'] : ['RUNNABLE'],
      type: 'BUSINESS',
      // the organization the account advertises for (what authors its ads and owns their media)
      reference: organizationOf(account),
    },
  };
}

/** `GET …/adCampaigns?q=search&search=(status:…,campaignGroup:…,name:…)&pageSize=&pageToken=`: the account's matching campaigns, token-paged. */
export function searchCampaigns(world: ProfessionalCampaigns, account: string, request: SandboxRequest): SandboxResponse {
  seedAccount(world, account);
  const search = parseSearch(request.rawQuery);
  if (request.query.get('q') !== 'search' || !search || Object.keys(search).some((field) => !['status', 'campaignGroup', 'name'].includes(field)))
    return restliError(400, {
      code: 'ILLEGAL_ARGUMENT',
      message: 'This sandbox answers q=search with search=(status|campaignGroup|name:(values:List(…))), values percent-encoded.',
    });
  return finderPage(matchCampaigns(world, account, search), request.query);
}

export function getCampaign(world: ProfessionalCampaigns, account: string, id: string): SandboxResponse {
  seedAccount(world, account);
  const campaign = world.campaigns.get(`${account}/${id}`);
  if (!campaign) return restliError(404, { serviceErrorCode: 101, code: 'NOT_FOUND', message: `Campaign ${id} does not exist in account ${account}` });
  return { status: 200, body: campaign };
}

export function checkBudget(value: unknown, account: string): SandboxResponse | string {
  const budget = value as { amount?: unknown; currencyCode?: unknown } | undefined;
  const currency = currencyOf(account);
  if (budget?.currencyCode !== currency)
    return inputError('INVALID_CURRENCY', `The budget's currency must be the account's (${currency}).`, '/dailyBudget/currencyCode');
  const amount = String(budget.amount ?? '');
  const decimals = DECIMALS[currency] ?? 2;
  if (!new RegExp(`^\\d+(\\.\\d{1,${Math.max(decimals, 1)}})?$`).test(amount) || (decimals === 0 && amount.includes('.')))
    return inputError('INVALID_AMOUNT', `The amount must be a decimal string with at most ${decimals} decimals.`, '/dailyBudget/amount');
  const minimum = MINIMUM_DAILY[currency] ?? 10;
  if (Number(amount) < minimum) return inputError('BUDGET_TOO_LOW', `The daily budget must be at least ${minimum} ${currency}.`, '/dailyBudget/amount', 10010);
  return amount;
}

export function updateCampaign(world: ProfessionalCampaigns, request: SandboxRequest, account: string, id: string): SandboxResponse {
  if (request.headers['x-restli-method'] !== 'PARTIAL_UPDATE')
    return restliError(400, { serviceErrorCode: 100, code: 'METHOD_NOT_ALLOWED', message: 'A campaign is changed with X-RestLi-Method: PARTIAL_UPDATE.' });
  const found = getCampaign(world, account, id);
  if (found.status !== 200) return found;
  const campaign = found.body as Row;
  const set = (request.fields as { patch?: { $set?: Row } }).patch?.$set;
  if (!set || Object.keys(set).length === 0)
    return restliError(400, { serviceErrorCode: 100, code: 'INVALID_PATCH', message: 'The body must be {"patch":{"$set":{…}}}.' });
  const unknown = Object.keys(set).find((field) => !['status', 'dailyBudget', 'name'].includes(field));
  if (unknown) return inputError('FIELD_NOT_UPDATABLE', `The field ${unknown} cannot be changed here.`, `/${unknown}`);
  const current = String(campaign.status);
  if (set.status !== undefined && set.status !== current) {
    if (!(ALLOWED[current] ?? []).includes(String(set.status)))
      return inputError('INVALID_STATUS_TRANSITION', `Campaign status cannot be changed from ${current} to ${String(set.status)}`, '/status');
  }
  if (set.status === 'ACTIVE' && current === 'DRAFT') {
    const refused = activationRefusal(world, account, campaign);
    if (refused) return refused;
  }
  if (REMOVED.has(current) || current === 'ARCHIVED')
    return inputError('INVALID_STATUS_TRANSITION', `A ${current} campaign cannot be changed.`, set.status !== undefined ? '/status' : '/dailyBudget');
  let amount: string | undefined;
  if (set.dailyBudget !== undefined) {
    const checked = checkBudget(set.dailyBudget, account);
    if (typeof checked !== 'string') return checked;
    amount = checked;
  }
  if (set.status !== undefined) campaign.status = set.status;
  if (amount !== undefined) campaign.dailyBudget = { amount, currencyCode: currencyOf(account) };
  if (set.name !== undefined) campaign.name = set.name;
  const version = Number((campaign.version as { versionTag?: string } | undefined)?.versionTag ?? '1') + 1;
  campaign.version = { versionTag: String(version) };
  campaign.changeAuditStamps = { lastModified: { time: clock.now() } };
  return { status: 204, body: null };
}

export function deleteCampaign(world: ProfessionalCampaigns, account: string, id: string): SandboxResponse {
  const found = getCampaign(world, account, id);
  if (found.status !== 200) return found;
  const campaign = found.body as Row;
  if (campaign.status === 'DRAFT') world.campaigns.delete(`${account}/${id}`);
  else campaign.status = 'PENDING_DELETION';
  return { status: 204, body: null };
}

interface Saved {
  campaigns: Array<[string, Row]>;
  groups?: Array<[string, Row]>;
  creatives?: Array<[string, Row]>;
  media?: SavedMedia;
  nextId: number;
}

/** The accounts' campaigns, groups and creatives, and the organizations' media, as a restart finds them. */
export function loadProfessionalCampaigns(file: string | undefined): { world: ProfessionalCampaigns; media?: SavedMedia } {
  if (!file || !existsSync(file)) return { world: { campaigns: new Map(), groups: new Map(), creatives: new Map(), nextId: 1 } };
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
  return {
    world: { campaigns: new Map(saved.campaigns), groups: new Map(saved.groups ?? []), creatives: new Map(saved.creatives ?? []), nextId: saved.nextId },
    ...(saved.media ? { media: saved.media } : {}),
  };
}

export function saveProfessionalCampaigns(file: string | undefined, world: ProfessionalCampaigns, media: SavedMedia): void {
  if (!file) return;
  const saved: Saved = { campaigns: [...world.campaigns], groups: [...world.groups], creatives: [...world.creatives], media, nextId: world.nextId };
  writeFileSync(file, JSON.stringify(saved));
}

/** Rest.li's `search=(field:(values:List(a,b)),…)`, its values percent-decoded: undefined when it is not that. */
export function parseSearch(rawQuery: string): Record<string, string[]> | undefined {
  const raw = /(?:^|[?&])search=([^&]*)/.exec(rawQuery)?.[1];
  const inner = raw ? /^\((.*)\)$/.exec(raw)?.[1] : undefined;
  if (inner === undefined) return undefined;
  const fields: Record<string, string[]> = {};
  const pattern = /([A-Za-z]+):\(values:List\(([^()]*)\)\)(,|$)/y;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < inner.length) {
    pattern.lastIndex = at;
    match = pattern.exec(inner);
    if (!match) return undefined;
    fields[match[1] as string] = (match[2] as string).split(',').map(decodeURIComponent);
    at = pattern.lastIndex;
  }
  return fields;
}

export const finderPage = (all: Row[], query: URLSearchParams): SandboxResponse => {
  const size = Math.min(1000, Number(query.get('pageSize') ?? '100') || 100);
  const start = Number(query.get('pageToken') ?? '0') || 0;
  if (query.get('sortOrder') === 'DESCENDING') all.reverse();
  return {
    status: 200,
    body: { elements: all.slice(start, start + size), metadata: start + size < all.length ? { nextPageToken: String(start + size) } : {} },
  };
};

/** Campaigns of the account matching a search of status, campaignGroup and name. */
export function matchCampaigns(world: ProfessionalCampaigns, account: string, search: Record<string, string[]>): Row[] {
  return [...world.campaigns.entries()]
    .filter(([key]) => key.startsWith(`${account}/`))
    .map(([, campaign]) => campaign)
    .filter(
      (campaign) =>
        (!search.status || search.status.includes(String(campaign.status))) &&
        (!search.campaignGroup || search.campaignGroup.includes(String(campaign.campaignGroup))) &&
        (!search.name || search.name.includes(String(campaign.name))),
    );
}

/** Whether a campaign may go ACTIVE: a launch's (under a group the sandbox holds) needs that group ACTIVE and a creative. */
export function activationRefusal(world: ProfessionalCampaigns, account: string, campaign: Row): SandboxResponse | undefined {
  const groupId = idOfUrn(campaign.campaignGroup, 'sponsoredCampaignGroup');
  const group = groupId ? world.groups.get(`${account}/${groupId}`) : undefined;
  if (!group) return undefined; // the seeded campaigns' groups are not modelled
  if (group.status !== 'ACTIVE') return inputError('INVALID_STATUS_TRANSITION', 'The campaign group must be ACTIVE before its campaign', '/status');
  const urn = `urn:li:sponsoredCampaign:${campaign.id}`;
  if (![...world.creatives.values()].some((creative) => creative.campaign === urn))
    return inputError('INVALID_STATUS_TRANSITION', 'A campaign needs a creative before it can be ACTIVE', '/status');
  return undefined;
}

export const idOfUrn = (urn: unknown, kind: string) =>
  typeof urn === 'string' && urn.startsWith(`urn:li:${kind}:`) ? urn.slice(`urn:li:${kind}:`.length) : undefined;
