import { PlatformCampaignRefused, PlatformRateLimited, PlatformRejected } from '../../core/errors.ts';
import { socialDecimals } from '../../core/money.ts';
import type { CampaignControl, ControlledCampaign } from '../campaign-control.ts';
import { accountCurrency } from './account.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { EVERY_EFFECTIVE_STATUS } from './campaigns.ts';
import type { GraphPaging } from './paging.ts';

/**
 * Campaign control on the social platform (docs/platforms.md, "Social: campaign control"): the campaign
 * node read with its budget fields, `POST /{campaign}` with `status` or `daily_budget` (an integer in
 * the currency's minor unit by the platform's own offset table), `DELETE /{campaign}` for our DELETE
 * (irreversible), and `execution_options=["validate_only"]` as the dry run. The platform allows 4
 * budget changes an hour per campaign: kept by us before the call (budgetChangesPerHour).
 */
type Session = SocialSession & { connection: { adAccountId: string } };

const CAMPAIGN_FIELDS = 'id,name,account_id,status,configured_status,effective_status,daily_budget,lifetime_budget,start_time';
interface CampaignNode {
  id: string;
  name?: string;
  account_id?: string;
  status?: string;
  daily_budget?: string;
  lifetime_budget?: string;
  start_time?: string;
}

/** The campaigns a list read asks for at once: a rule's 100, up to five rules' in one page. */
const LIST_PAGE_SIZE = 500;
const MAX_LIST_PAGES = 20;

const positive = (value: string | undefined) => value !== undefined && /^\d+$/.test(value) && BigInt(value) > 0n;

/** A refusal the platform gives for an object that is not there (or not the user's to see). */
const isUnknownObject = (error: unknown) =>
  error instanceof PlatformRejected && error.extra.platformCode === 100 && (error.extra.platformSubcode === 33 || error.extra.platformSubcode === undefined);

/** A campaign node in our words. */
function controlledOf(node: CampaignNode, currency: string): ControlledCampaign {
  const status = String(node.status ?? 'PAUSED');
  const budget = positive(node.daily_budget)
    ? { kind: 'daily' as const, units: BigInt(node.daily_budget as string) }
    : { kind: 'elsewhere' as const, where: positive(node.lifetime_budget) ? 'it has a lifetime budget' : 'its budgets are set on its ad sets' };
  const startMs = Date.parse(node.start_time ?? '');
  return {
    id: node.id,
    name: node.name ?? '',
    status: status === 'ACTIVE' ? 'ACTIVE' : status === 'PAUSED' ? 'PAUSED' : 'REMOVED',
    platformStatus: status,
    currency,
    decimals: socialDecimals(currency),
    budget,
    ...(Number.isFinite(startMs) ? { startMs } : {}),
  };
}

/** The minimum the platform names in its "Budget Is Too Low" answer ("at least $1.00 USD per day"), when it names one. */
export function minimumFromMessage(message: string, currency: string): { amount: string; currency: string } | undefined {
  const found = message.match(/at least\D*?(\d+(?:[.,]\d+)?)\s*([A-Z]{3})?/);
  return found ? { amount: (found[1] as string).replace(',', '.'), currency: found[2] ?? currency } : undefined;
}

/** The platform's refusals of a campaign write, in the words of the error table. */
function refusalOf(error: unknown, campaign: ControlledCampaign, budgetWrite: boolean): unknown {
  if (budgetWrite && error instanceof PlatformRateLimited) return new PlatformRateLimited('social', 3600, error);
  if (!(error instanceof PlatformRejected)) return error;
  const { platformSubcode, platformCode } = error.extra;
  if (platformCode === 100 && /budget is too low/i.test(String((error.cause as { userTitle?: string } | undefined)?.userTitle ?? ''))) {
    const minimum = minimumFromMessage(error.message, campaign.currency);
    return new PlatformCampaignRefused('social', 'BUDGET_TOO_LOW', error.message, minimum ? { minimum } : {}, error);
  }
  if (platformSubcode === 1885621) return new PlatformCampaignRefused('social', 'BUDGET_NOT_ON_CAMPAIGN', error.message, {}, error);
  if (platformSubcode === 1487056) return new PlatformCampaignRefused('social', 'CAMPAIGN_REMOVED', error.message, {}, error);
  if (platformSubcode === 1487212) return new PlatformCampaignRefused('social', 'INVALID_TRANSITION', error.message, {}, error);
  return error;
}

/** The write a status request is: `DELETE /{campaign}` for our DELETE, else a POST of `status` (a delete's dry run validates status=DELETED). */
export function statusWrite(wanted: 'ACTIVE' | 'PAUSED' | 'DELETE', validateOnly: boolean): { method: 'POST' | 'DELETE'; params: Record<string, unknown> } {
  if (wanted === 'DELETE' && !validateOnly) return { method: 'DELETE', params: {} };
  return { method: 'POST', params: { status: wanted === 'DELETE' ? 'DELETED' : wanted, ...(validateOnly ? { execution_options: ['validate_only'] } : {}) } };
}

/** A daily budget in the currency's minor unit (the units of socialDecimals are exactly those). */
export function budgetParams(units: bigint, validateOnly: boolean): Record<string, unknown> {
  return { daily_budget: units.toString(), ...(validateOnly ? { execution_options: ['validate_only'] } : {}) };
}

export const socialCampaignControl: CampaignControl<Session> = {
  platform: 'social',
  budgetChangesPerHour: 4,

  async read(session, campaignId) {
    let node: CampaignNode;
    try {
      node = (await graphRequest<CampaignNode>(session, 'GET', campaignId, { fields: CAMPAIGN_FIELDS })).body;
    } catch (error) {
      if (isUnknownObject(error)) return undefined;
      throw error;
    }
    const account = session.connection.adAccountId;
    if (node.account_id !== undefined && node.account_id !== account) return undefined;
    return controlledOf(node, await accountCurrency(session, account));
  },

  async readMany(session, campaignIds) {
    const account = session.connection.adAccountId;
    const currency = await accountCurrency(session, account);
    const found = new Map<string, ControlledCampaign>();
    let after: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const { body } = await graphRequest<{ data?: CampaignNode[]; paging?: GraphPaging }>(session, 'GET', `act_${account}/campaigns`, {
        fields: CAMPAIGN_FIELDS,
        effective_status: [...EVERY_EFFECTIVE_STATUS],
        filtering: JSON.stringify([{ field: 'id', operator: 'IN', value: campaignIds }]),
        limit: LIST_PAGE_SIZE,
        ...(after ? { after } : {}),
      });
      for (const node of body.data ?? []) found.set(node.id, controlledOf(node, currency));
      after = body.paging?.next ? body.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return found;
  },

  planStatus(campaign, wanted) {
    if (wanted === 'DELETE') return { status: 'REMOVED', platformStatus: 'DELETED', changed: true };
    return { status: wanted, platformStatus: wanted, changed: campaign.status !== wanted };
  },

  async writeStatus(session, campaign, wanted, validateOnly) {
    const write = statusWrite(wanted, validateOnly);
    try {
      // a write whose answer is lost is not sent again: the control code reads the campaign back
      await graphRequest(session, write.method, campaign.id, write.params, { retrySafe: validateOnly });
    } catch (error) {
      throw refusalOf(error, campaign, false);
    }
  },

  async writeDailyBudget(session, campaign, units, validateOnly) {
    try {
      // never sent again after a lost answer: each one the platform takes counts against its 4 an hour
      await graphRequest(session, 'POST', campaign.id, budgetParams(units, validateOnly), { retrySafe: validateOnly });
    } catch (error) {
      throw refusalOf(error, campaign, true);
    }
  },
};
