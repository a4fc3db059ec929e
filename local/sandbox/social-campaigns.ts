import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxResponse } from './server.ts';
import type { Row } from './social-data.ts';

/**
 * Campaign control on the social sandbox (docs/platforms.md, "Social: campaign control"): reading a campaign and its
 * account, `POST /{campaign}` with `status`, `daily_budget` and `execution_options`, `DELETE
 * /{campaign}`, and `POST act_{id}/campaigns` to make campaigns to control. The platform's rules as
 * the platform documents them: budgets are unsigned integers in the currency's minor unit; a campaign
 * whose budget is on its ad sets or is a lifetime budget refuses a daily budget (100/1885621, 100);
 * below the account's minimum is 100 "Budget Is Too Low"; the fifth budget change of a campaign within
 * an hour is code 17 and blocks it for the hour; a deleted campaign refuses every write; a dry run
 * checks all of that and changes nothing. Campaigns and their budget changes are kept in the data
 * folder, so they survive a restart.
 */
/** An ad set, creative or ad a launch made (social-launch.ts serves them). */
export type LaunchKind = 'adset' | 'creative' | 'ad';
export type LaunchObject = Row & { kind: LaunchKind; account: string; parent?: string; createdAtMs: number };

export interface CampaignWorld {
  campaigns: Map<string, Row[]>;
  /** ad account → its currency and time zone */
  accounts: Map<string, { currency: string; timezone: string }>;
  /** campaign → when its budget was changed (epoch ms), and until when further changes are blocked */
  budgetChanges: Map<string, { at: number[]; blockedUntil?: number }>;
  /** what launches made under the campaigns: ad sets, creatives and ads, by id (social-launch.ts) */
  objects: Map<string, LaunchObject>;
  nextId: number;
}

const HOUR_MS = 3_600_000;
const CHANGES_PER_HOUR = 4;

/** Extra accounts in other currencies, to exercise every minor unit (JPY whole units, KWD three decimals, HUF offset 1). */
export const SANDBOX_SOCIAL_ACCOUNTS: Record<string, { currency: string; timezone: string; accountStatus?: number }> = {
  '1200000000000002': { currency: 'JPY', timezone: 'Asia/Tokyo' },
  '1200000000000003': { currency: 'KWD', timezone: 'Asia/Kuwait' },
  '1200000000000004': { currency: 'HUF', timezone: 'Europe/Budapest' },
  /** disabled (account_status 2): a launch is refused ACCOUNT_NOT_ELIGIBLE */
  '1200000000000005': { currency: 'USD', timezone: 'America/New_York', accountStatus: 2 },
  '1200000000000006': { currency: 'EUR', timezone: 'Europe/Berlin' },
};

const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);
/** the smallest daily budget, in the currency's minor unit (1.00 of an offset-100 currency, 100 of an offset-1 one) */
export const minimumOf = (currency: string) => (OFFSET_ONE.has(currency) ? 100 : 100);
const symbolOf = (currency: string) => (currency === 'USD' ? '$' : '');

export function graphErrorBody(code: number, message: string, extra: Row = {}, status = 400): SandboxResponse {
  return { status, body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AxSANDBOXtrace', ...extra } } };
}

export function accountOf(world: CampaignWorld, account: string): { currency: string; timezone: string; accountStatus?: number } {
  return world.accounts.get(account) ?? SANDBOX_SOCIAL_ACCOUNTS[account] ?? { currency: 'USD', timezone: 'America/Los_Angeles' };
}

export function findCampaign(world: CampaignWorld, id: string): { row: Row; account: string } | undefined {
  for (const [account, rows] of world.campaigns) {
    const row = rows.find((candidate) => candidate.id === id);
    if (row) return { row, account };
  }
  return undefined;
}

const nowStamp = () => new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, '+0000');

function setStatus(row: Row, status: string): void {
  row.status = status;
  row.configured_status = status;
  row.effective_status = status;
  row.updated_time = nowStamp();
}

function isValidateOnly(params: Row): boolean | SandboxResponse {
  const raw = params.execution_options;
  if (raw === undefined) return false;
  let options: unknown = raw;
  if (typeof raw === 'string') {
    try {
      options = JSON.parse(raw);
    } catch {
      return graphErrorBody(100, '(#100) param execution_options must be an array.');
    }
  }
  if (!Array.isArray(options) || options.some((option) => !['validate_only', 'include_recommendations'].includes(String(option))))
    return graphErrorBody(100, '(#100) Param execution_options[0] must be one of {validate_only, include_recommendations}');
  return options.includes('validate_only');
}

/** `POST /{campaign}`: status and daily budget, each checked as the platform checks it. */
export function updateCampaign(world: CampaignWorld, id: string, params: Row): SandboxResponse | undefined {
  const found = findCampaign(world, id);
  if (!found) return undefined;
  const { row, account } = found;
  const validateOnly = isValidateOnly(params);
  if (typeof validateOnly !== 'boolean') return validateOnly;
  if (row.status === 'DELETED')
    return graphErrorBody(100, '(#100) Cannot edit a deleted campaign.', { error_subcode: 1487056, error_user_title: 'Campaign Deleted' });
  const status = params.status === undefined ? undefined : String(params.status);
  if (status !== undefined) {
    if (!['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'].includes(status))
      return graphErrorBody(100, '(#100) Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}');
    if (row.status === 'ARCHIVED' && status !== 'ARCHIVED' && status !== 'DELETED')
      return graphErrorBody(100, '(#100) An archived campaign cannot be set to this status.', { error_subcode: 1487212 });
  }
  let budget: number | undefined;
  if (params.daily_budget !== undefined) {
    const raw = String(params.daily_budget);
    if (!/^\d+$/.test(raw)) return graphErrorBody(100, '(#100) Param daily_budget must be a non-negative integer.');
    budget = Number(raw);
    if (row.lifetime_budget !== undefined && row.lifetime_budget !== '0')
      return graphErrorBody(100, '(#100) A campaign with a lifetime budget cannot be given a daily budget.', { error_subcode: 1885630 });
    if (row.daily_budget === undefined || row.daily_budget === '0')
      return graphErrorBody(100, 'Invalid parameter', {
        error_subcode: 1885621,
        error_user_title: 'Budget Conflict: Campaign Has No Budget',
        error_user_msg: 'The budgets of this campaign are set on its ad sets.',
      });
    const { currency } = accountOf(world, account);
    const minimum = minimumOf(currency);
    if (budget < minimum) {
      const major = OFFSET_ONE.has(currency) ? String(minimum) : (minimum / 100).toFixed(2);
      return graphErrorBody(100, 'Invalid parameter', {
        is_transient: false,
        error_user_title: 'Budget Is Too Low',
        error_user_msg: `The budget for this campaign must be at least ${symbolOf(currency)}${major} ${currency} per day. Please edit your budget to enable delivery of your ads.`,
      });
    }
    const now = clock.now();
    const changes = world.budgetChanges.get(id) ?? { at: [] };
    changes.at = changes.at.filter((at) => now - at < HOUR_MS);
    if ((changes.blockedUntil ?? 0) > now || changes.at.length >= CHANGES_PER_HOUR) {
      if (!validateOnly && (changes.blockedUntil ?? 0) <= now) changes.blockedUntil = now + HOUR_MS;
      world.budgetChanges.set(id, changes);
      return graphErrorBody(17, 'User request limit reached', { is_transient: true });
    }
    if (!validateOnly) {
      changes.at.push(now);
      world.budgetChanges.set(id, changes);
    }
  }
  if (status === undefined && budget === undefined) return graphErrorBody(100, '(#100) No fields to update.');
  if (validateOnly) return { status: 200, body: { success: true } };
  if (budget !== undefined) {
    row.daily_budget = String(budget);
    row.updated_time = nowStamp();
  }
  if (status !== undefined) setStatus(row, status);
  return { status: 200, body: { success: true } };
}

/** `DELETE /{campaign}`: irreversible; its ad sets and ads go with it. */
export function deleteCampaign(world: CampaignWorld, id: string): SandboxResponse | undefined {
  const found = findCampaign(world, id);
  if (!found) return undefined;
  if (found.row.status === 'DELETED') return graphErrorBody(100, '(#100) Cannot delete a deleted campaign.', { error_subcode: 1487056 });
  setStatus(found.row, 'DELETED');
  return { status: 200, body: { success: true } };
}

/** `POST act_{id}/campaigns`: a campaign to control (a daily or lifetime campaign budget, or none: its ad sets hold it). */
export function createCampaign(world: CampaignWorld, account: string, params: Row): SandboxResponse {
  const name = String(params.name ?? '').trim();
  if (!name) return graphErrorBody(100, '(#100) The parameter name is required');
  if (params.special_ad_categories === undefined) return graphErrorBody(100, '(#100) The parameter special_ad_categories is required');
  const status = String(params.status ?? 'PAUSED');
  if (!['ACTIVE', 'PAUSED'].includes(status)) return graphErrorBody(100, '(#100) Param status must be one of {ACTIVE, PAUSED}');
  const id = `1202109880${String(world.nextId++).padStart(8, '0')}`;
  const row: Row = {
    id,
    name,
    objective: String(params.objective ?? 'OUTCOME_TRAFFIC'),
    status,
    configured_status: status,
    effective_status: status,
    buying_type: 'AUCTION',
    special_ad_categories: typeof params.special_ad_categories === 'string' ? params.special_ad_categories : JSON.stringify(params.special_ad_categories ?? []),
    created_time: nowStamp(),
    updated_time: nowStamp(),
    start_time: nowStamp(),
  };
  for (const field of ['daily_budget', 'lifetime_budget'] as const) {
    if (params[field] === undefined) continue;
    if (!/^\d+$/.test(String(params[field]))) return graphErrorBody(100, `(#100) Param ${field} must be a non-negative integer.`);
    row[field] = String(params[field]);
  }
  const { currency } = accountOf(world, account);
  if (row.daily_budget !== undefined && Number(row.daily_budget) < minimumOf(currency))
    return graphErrorBody(100, 'Invalid parameter', {
      error_subcode: 1885272,
      error_user_title: 'Budget Is Too Low',
      error_user_msg: `Your budget must be at least ${symbolOf(currency)}${OFFSET_ONE.has(currency) ? minimumOf(currency) : (minimumOf(currency) / 100).toFixed(2)} ${currency} per day.`,
    });
  const rows = world.campaigns.get(account) ?? [];
  rows.push(row);
  world.campaigns.set(account, rows);
  return { status: 200, body: { id } };
}

/** `GET act_{id}`: the account's currency, time zone, status, minimum daily budget, payment method and the user's tasks. */
export function adAccount(world: CampaignWorld, account: string, fields: string[], business?: string): SandboxResponse {
  const { currency, timezone, accountStatus = 1 } = accountOf(world, account);
  const row: Row = {
    id: `act_${account}`,
    account_id: account,
    currency,
    timezone_name: timezone,
    account_status: accountStatus,
    disable_reason: accountStatus === 1 ? 0 : 1,
    min_daily_budget: minimumOf(currency),
    funding_source_details: { id: '4567890123456789', display_string: 'Visa *1234', type: 1 },
    user_tasks: ['DRAFT', 'ANALYZE', 'ADVERTISE', 'MANAGE'],
    name: `Sandbox account ${account}`,
    ...(business ? { business: { id: business, name: 'Sandbox business' } } : {}),
  };
  const shown: Row = { id: row.id };
  for (const field of fields) if (field in row) shown[field] = row[field];
  return { status: 200, body: shown };
}

/** The campaigns and budget changes, as one file in the data folder (rewritten after each change). */
export function saveCampaignWorld(file: string, world: CampaignWorld): void {
  writeFileSync(
    file,
    JSON.stringify({
      nextId: world.nextId,
      campaigns: [...world.campaigns],
      budgetChanges: [...world.budgetChanges],
      accounts: [...world.accounts],
      objects: [...world.objects],
    }),
  );
}

export function loadCampaignWorld(file: string, seed: CampaignWorld): CampaignWorld {
  if (!existsSync(file)) return seed;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    nextId: number;
    campaigns: Array<[string, Row[]]>;
    budgetChanges: Array<[string, { at: number[]; blockedUntil?: number }]>;
    accounts: Array<[string, { currency: string; timezone: string }]>;
    objects?: Array<[string, LaunchObject]>;
  };
  return {
    nextId: saved.nextId,
    campaigns: new Map(saved.campaigns),
    budgetChanges: new Map(saved.budgetChanges),
    accounts: new Map(saved.accounts),
    objects: new Map(saved.objects ?? []),
  };
}

const noise = (seed: string) => createHash('md5').update(seed).digest().readUInt32BE(0) / 2 ** 32;

/**
 * A campaign's insights row for one day, deterministic per campaign and day so that figures move with
 * the clock; about one day in six has no delivery (no row), as the platform omits such days.
 */
export function dailyInsight(campaign: Row, account: string, currency: string, date: string): Row | undefined {
  const roll = noise(`${String(campaign.id)}:${date}`);
  if (roll < 0.16 || campaign.status === 'DELETED') return undefined;
  const impressions = Math.floor(2_000 + roll * 18_000);
  const clicks = Math.floor(impressions * (0.004 + roll * 0.03));
  const cents = Math.floor(impressions * (0.2 + roll * 0.6)); // about 2 to 8 per thousand impressions
  const leads = roll < 0.3 ? 0 : Math.floor(clicks * 0.05 * roll);
  const purchases = roll > 0.8 ? Math.floor(roll * 3) : 0;
  const offsetOne = currency === 'JPY' || currency === 'HUF' || currency === 'KRW';
  const spend = offsetOne ? String(cents) : (cents / 100).toFixed(2);
  return {
    account_id: account,
    account_currency: currency,
    campaign_id: String(campaign.id),
    campaign_name: String(campaign.name),
    date_start: date,
    date_stop: date,
    impressions: String(impressions),
    clicks: String(clicks),
    spend,
    reach: String(Math.floor(impressions / (1.2 + roll))),
    frequency: (1.2 + roll).toFixed(6),
    ctr: ((clicks / impressions) * 100).toFixed(6),
    cpc: clicks > 0 ? (Number(spend) / clicks).toFixed(6) : undefined,
    cpm: ((Number(spend) / impressions) * 1000).toFixed(6),
    actions: [
      { action_type: 'link_click', value: String(clicks) },
      ...(leads > 0 ? [{ action_type: 'lead', value: String(leads) }] : []),
      ...(purchases > 0 ? [{ action_type: 'purchase', value: String(purchases) }] : []),
    ],
    ...(purchases > 0 ? { action_values: [{ action_type: 'purchase', value: (purchases * 49.5).toFixed(2) }] } : {}),
  };
}

/** The days from `since` to `until` (YYYY-MM-DD, both included), no later than `today`. */
export function daysBetween(since: string, until: string, today: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${since}T00:00:00Z`); time <= Date.parse(`${until}T00:00:00Z`); time += 86_400_000) {
    const day = new Date(time).toISOString().slice(0, 10);
    if (day > today) break;
    days.push(day);
  }
  return days;
}
