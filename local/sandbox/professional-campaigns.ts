import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * Campaigns on the professional sandbox (docs/platforms.md, "Professional: campaign control"): `GET` of an ad account and of one
 * of its campaigns, `POST` with `X-RestLi-Method: PARTIAL_UPDATE` and `{"patch":{"$set":{…}}}` for
 * `status` and `dailyBudget` (204), `DELETE` (a DRAFT goes, any other becomes PENDING_DELETION), and
 * a create to make campaigns to control. The rules: the transition table, the account's currency,
 * the currency's decimals, a minimum daily budget (10.00 USD or the same in units), and a 400 for a
 * partial update without its method header. Campaigns live per account and survive a restart.
 */
type Row = Record<string, unknown>;

export interface ProfessionalCampaigns {
  /** `${account}/${id}` → campaign */
  campaigns: Map<string, Row>;
  nextId: number;
}

/** Accounts in other currencies (JPY whole units, KWD three decimals); any other account is USD. */
export const SANDBOX_PROFESSIONAL_CURRENCIES: Record<string, string> = { '500000002': 'JPY', '500000003': 'KWD' };
const currencyOf = (account: string) => SANDBOX_PROFESSIONAL_CURRENCIES[account] ?? 'USD';
const DECIMALS: Record<string, number> = { JPY: 0, KWD: 3 };
const MINIMUM_DAILY: Record<string, number> = { USD: 10, JPY: 1000, KWD: 3 };
const REMOVED = new Set(['COMPLETED', 'CANCELED', 'PENDING_DELETION', 'REMOVED']);
/** who may be set from what (docs/platforms.md, "Professional: campaign control"); ARCHIVED is set by a client, and nothing comes back from it here */
const ALLOWED: Record<string, string[]> = {
  ACTIVE: ['PAUSED', 'ARCHIVED'],
  PAUSED: ['ACTIVE', 'ARCHIVED'],
  DRAFT: ['ACTIVE', 'ARCHIVED'],
};

/** A Rest.li error answer, as every professional route gives it. */
export const restliError = (status: number, body: Row, headers: Record<string, string> = {}): SandboxResponse => ({
  status,
  body: { status, ...body },
  headers: { 'x-restli-protocol-version': '2.0.0', ...headers },
});
const inputError = (code: string, message: string, fieldPath: string, serviceErrorCode = 10007) =>
  restliError(400, {
    serviceErrorCode,
    code,
    message,
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    errorDetails: { inputErrors: [{ description: message, input: { inputPath: { fieldPath } }, code: 'INVALID_VALUE_FOR_FIELD' }] },
  });

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

export function getAccount(world: ProfessionalCampaigns, account: string): SandboxResponse {
  seedAccount(world, account);
  return {
    status: 200,
    body: {
      id: Number(account),
      name: `Sandbox account ${account}`,
      currency: currencyOf(account),
      status: 'ACTIVE',
      type: 'BUSINESS',
      // the organization the account advertises for (what authors its ads and owns their media)
      reference: organizationOf(account),
    },
  };
}

/** `GET …/adCampaigns?q=search&search=(status:(values:List(…)))&pageSize=&pageToken=`: the account's campaigns of those statuses, token-paged. */
export function searchCampaigns(world: ProfessionalCampaigns, account: string, query: URLSearchParams): SandboxResponse {
  seedAccount(world, account);
  const statuses = /^\(status:\(values:List\(([A-Z_,]+)\)\)\)$/.exec(query.get('search') ?? '')?.[1]?.split(',');
  if (query.get('q') !== 'search' || !statuses)
    return restliError(400, { code: 'ILLEGAL_ARGUMENT', message: 'This sandbox answers q=search with search=(status:(values:List(…))).' });
  const size = Math.min(1000, Number(query.get('pageSize') ?? '100') || 100);
  const start = Number(query.get('pageToken') ?? '0') || 0;
  const all = [...world.campaigns.entries()]
    .filter(([key, campaign]) => key.startsWith(`${account}/`) && statuses.includes(String(campaign.status)))
    .map(([, campaign]) => campaign);
  const elements = all.slice(start, start + size);
  return { status: 200, body: { elements, metadata: start + size < all.length ? { nextPageToken: String(start + size) } : {} } };
}

export function getCampaign(world: ProfessionalCampaigns, account: string, id: string): SandboxResponse {
  seedAccount(world, account);
  const campaign = world.campaigns.get(`${account}/${id}`);
  if (!campaign) return restliError(404, { serviceErrorCode: 101, code: 'NOT_FOUND', message: `Campaign ${id} does not exist in account ${account}` });
  return { status: 200, body: campaign };
}

function checkBudget(value: unknown, account: string): SandboxResponse | string {
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

/** `POST /rest/adAccounts/{a}/adCampaigns` (no method header): a new campaign, its id in `x-restli-id`. */
export function createCampaign(world: ProfessionalCampaigns, request: SandboxRequest, account: string): SandboxResponse {
  seedAccount(world, account);
  const body = request.fields as Row;
  if (!body.name) return inputError('REQUIRED_FIELD_MISSING', 'name is required', '/name');
  const status = String(body.status ?? 'DRAFT');
  if (!['ACTIVE', 'PAUSED', 'DRAFT'].includes(status)) return inputError('INVALID_VALUE', 'A new campaign is ACTIVE, PAUSED or DRAFT.', '/status');
  const id = 610000000 + world.nextId++;
  const campaign: Row = {
    account: `urn:li:sponsoredAccount:${account}`,
    id,
    name: body.name,
    status,
    type: 'SPONSORED_UPDATES',
    runSchedule: { start: clock.now() },
    version: { versionTag: '1' },
  };
  if (body.dailyBudget !== undefined) {
    const checked = checkBudget(body.dailyBudget, account);
    if (typeof checked !== 'string') return checked;
    campaign.dailyBudget = { amount: checked, currencyCode: currencyOf(account) };
  }
  if (body.totalBudget !== undefined) campaign.totalBudget = body.totalBudget;
  world.campaigns.set(`${account}/${id}`, campaign);
  return { status: 201, body: null, headers: { 'x-restli-id': String(id), 'x-linkedin-id': String(id) } };
}

export function loadProfessionalCampaigns(file: string | undefined): ProfessionalCampaigns {
  if (!file || !existsSync(file)) return { campaigns: new Map(), nextId: 1 };
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { campaigns: Array<[string, Row]>; nextId: number };
  return { campaigns: new Map(saved.campaigns), nextId: saved.nextId };
}

export function saveProfessionalCampaigns(file: string | undefined, world: ProfessionalCampaigns): void {
  if (file) writeFileSync(file, JSON.stringify({ campaigns: [...world.campaigns], nextId: world.nextId }));
}
