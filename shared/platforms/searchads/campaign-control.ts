import { PlatformCampaignRefused, PlatformRejected } from '../../core/errors.ts';
import { decimalsOfBillableUnit, fromUnits, MICROS_DECIMALS } from '../../core/money.ts';
import type { CampaignControl, ControlledCampaign } from '../campaign-control.ts';
import { adsRequest, type SearchadsSession } from './client.ts';

/**
 * Campaign control on search ads (docs/platforms.md, "Search ads: campaign control"): one GAQL read
 * of the campaign with its budget and the customer's currency; `campaigns:mutate` with an `update`
 * of `status` (ENABLED or PAUSED, updateMask "status") or a `remove` for our DELETE (irreversible);
 * `campaignBudgets:mutate` with `amountMicros` (updateMask "amountMicros"), a multiple of the
 * currency's billable unit. `validateOnly: true` is the platform's own dry run. A budget other
 * campaigns share is the shared kind; a custom-period (total) budget is not a daily one.
 */
interface CampaignRow {
  customer?: { currencyCode?: string };
  campaign?: { resourceName?: string; id?: string; name?: string; status?: string; startDateTime?: string; campaignBudget?: string };
  campaignBudget?: { resourceName?: string; status?: string; period?: string; amountMicros?: string; explicitlyShared?: boolean; referenceCount?: string };
}

const CAMPAIGN_QUERY = (where: string) =>
  'SELECT customer.currency_code, campaign.id, campaign.name, campaign.status, campaign.start_date_time, campaign.campaign_budget, ' +
  'campaign_budget.amount_micros, campaign_budget.explicitly_shared, campaign_budget.reference_count, campaign_budget.period, campaign_budget.status ' +
  `FROM campaign WHERE ${where}`;

/** A currency's billable unit, in micros: asked once per currency and process (it does not change). */
const billableUnits = new Map<string, bigint>();

async function billableUnitOf(session: SearchadsSession, currency: string): Promise<bigint> {
  const known = billableUnits.get(currency);
  if (known) return known;
  if (!/^[A-Z]{3}$/.test(currency)) throw new PlatformRejected('searchads', `The account’s currency ${currency} is not one the service knows.`);
  const { results = [] } = await adsRequest<{ results?: Array<{ currencyConstant?: { billableUnitMicros?: string } }> }>(
    session,
    'googleAds:search',
    { query: `SELECT currency_constant.code, currency_constant.billable_unit_micros FROM currency_constant WHERE currency_constant.code = '${currency}'` },
    { retrySafe: true },
  );
  const unit = BigInt(results[0]?.currencyConstant?.billableUnitMicros ?? '10000');
  billableUnits.set(currency, unit);
  return unit;
}

const micros = (units: bigint, decimals: number) => units * 10n ** BigInt(MICROS_DECIMALS - decimals);

const REMOVED_CODES = new Set(['operationAccessDeniedError.OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE', 'campaignBudgetError.CAMPAIGN_BUDGET_REMOVED']);
const TRANSITION_CODES = new Set([
  'campaignError.INVALID_STATUS_CHANGE',
  'campaignError.CANNOT_MODIFY_FOR_TRIAL_CAMPAIGN',
  'campaignError.INVALID_OPERATION_IF_SERVING_STATUS_HAS_ENDED',
]);

function refusalOf(error: unknown, campaign: ControlledCampaign): unknown {
  if (!(error instanceof PlatformRejected)) return error;
  const code = String(error.extra.platformCode ?? '');
  const extra = { platformCode: code };
  if (REMOVED_CODES.has(code)) return new PlatformCampaignRefused('searchads', 'CAMPAIGN_REMOVED', error.message, extra, error);
  if (TRANSITION_CODES.has(code)) return new PlatformCampaignRefused('searchads', 'INVALID_TRANSITION', error.message, extra, error);
  if (code === 'mutateError.RESOURCE_NOT_FOUND') return new PlatformCampaignRefused('searchads', 'CAMPAIGN_NOT_FOUND', error.message, extra, error);
  if (code === 'campaignBudgetError.BUDGET_BELOW_PER_DAY_MINIMUM') {
    const minimumMicros = (error.cause as { details?: { budgetPerDayMinimumErrorDetails?: { minimumBudgetAmountMicros?: string } } } | undefined)?.details
      ?.budgetPerDayMinimumErrorDetails?.minimumBudgetAmountMicros;
    const minimum =
      minimumMicros && /^\d+$/.test(minimumMicros)
        ? { amount: fromUnits(BigInt(minimumMicros) / 10n ** BigInt(MICROS_DECIMALS - campaign.decimals), campaign.decimals), currency: campaign.currency }
        : undefined;
    return new PlatformCampaignRefused('searchads', 'BUDGET_TOO_LOW', error.message, { ...extra, ...(minimum ? { minimum } : {}) }, error);
  }
  return error;
}

/** The campaigns:mutate operation of a status request: an update of status (updateMask "status"), or a remove for our DELETE. */
export function statusOperation(resourceName: string, wanted: 'ACTIVE' | 'PAUSED' | 'DELETE'): Record<string, unknown> {
  if (wanted === 'DELETE') return { remove: resourceName };
  return { updateMask: 'status', update: { resourceName, status: wanted === 'ACTIVE' ? 'ENABLED' : 'PAUSED' } };
}

/** The campaignBudgets:mutate body of a new daily amount: micros, exactly, from units of 10^-decimals. */
export function budgetBody(resourceName: string, units: bigint, decimals: number, validateOnly: boolean): Record<string, unknown> {
  return {
    operations: [{ updateMask: 'amountMicros', update: { resourceName, amountMicros: micros(units, decimals).toString() } }],
    ...(validateOnly ? { validateOnly: true } : {}),
  };
}

const decimalsOf = async (session: SearchadsSession, row: CampaignRow) =>
  decimalsOfBillableUnit(await billableUnitOf(session, String(row.customer?.currencyCode ?? 'USD')));

/** A campaign row (with its budget) in our words. */
function controlledOf(row: CampaignRow, decimals: number): ControlledCampaign {
  const currency = String(row.customer?.currencyCode ?? 'USD');
  const { campaign, campaignBudget: budgetRow } = row;
  if (!campaign) throw new Error('a campaign row without its campaign');
  const status = String(campaign.status ?? 'PAUSED');
  const amount = BigInt(budgetRow?.amountMicros ?? '0') / 10n ** BigInt(MICROS_DECIMALS - decimals);
  const references = Number(budgetRow?.referenceCount ?? '1');
  const budget =
    !budgetRow || budgetRow.period === 'CUSTOM_PERIOD' || budgetRow.amountMicros === undefined
      ? { kind: 'elsewhere' as const, where: 'it has a total (custom period) budget, not a daily one' }
      : budgetRow.explicitlyShared === true && references > 1
        ? { kind: 'shared' as const, units: amount, sharedWith: references - 1 }
        : { kind: 'daily' as const, units: amount };
  const startMs = Date.parse(`${(campaign.startDateTime ?? '').replace(' ', 'T')}Z`);
  return {
    id: String(campaign.id),
    name: campaign.name ?? '',
    status: status === 'ENABLED' ? 'ACTIVE' : status === 'PAUSED' ? 'PAUSED' : 'REMOVED',
    platformStatus: status,
    currency,
    decimals,
    budget,
    ...(Number.isFinite(startMs) ? { startMs } : {}),
    ref: { campaign: campaign.resourceName as string, ...(budgetRow?.resourceName ? { budget: budgetRow.resourceName } : {}) },
  };
}

export const searchadsCampaignControl: CampaignControl<SearchadsSession> = {
  platform: 'searchads',

  async read(session, campaignId) {
    const { results = [] } = await adsRequest<{ results?: CampaignRow[] }>(
      session,
      'googleAds:search',
      { query: CAMPAIGN_QUERY(`campaign.id = ${campaignId}`) },
      { retrySafe: true },
    );
    const row = results[0];
    return row?.campaign?.resourceName ? controlledOf(row, await decimalsOf(session, row)) : undefined;
  },

  async readMany(session, campaignIds) {
    const ids = campaignIds.filter((id) => /^\d+$/.test(id));
    const found = new Map<string, ControlledCampaign>();
    if (ids.length === 0) return found;
    const { results = [] } = await adsRequest<{ results?: CampaignRow[] }>(
      session,
      'googleAds:search',
      { query: CAMPAIGN_QUERY(`campaign.id IN (${ids.join(', ')})`) },
      { retrySafe: true },
    );
    for (const row of results) if (row.campaign?.resourceName) found.set(String(row.campaign.id), controlledOf(row, await decimalsOf(session, row)));
    return found;
  },

  planStatus(campaign, wanted) {
    if (wanted === 'DELETE') return { status: 'REMOVED', platformStatus: 'REMOVED', changed: true };
    const platformStatus = wanted === 'ACTIVE' ? 'ENABLED' : 'PAUSED';
    return { status: wanted, platformStatus, changed: campaign.status !== wanted };
  },

  async writeStatus(session, campaign, wanted, validateOnly) {
    const operation = statusOperation(campaign.ref?.campaign as string, wanted);
    // a write whose answer is lost is not sent again: the control code reads the campaign back
    await adsRequest(
      session,
      'campaigns:mutate',
      { operations: [operation], ...(validateOnly ? { validateOnly: true } : {}) },
      { retrySafe: validateOnly === true },
    ).catch((error: unknown) => {
      throw refusalOf(error, campaign);
    });
  },

  async writeDailyBudget(session, campaign, units, validateOnly) {
    const body = {
      operations: [
        { updateMask: 'amountMicros', update: { resourceName: campaign.ref?.budget as string, amountMicros: micros(units, campaign.decimals).toString() } },
      ],
      ...(validateOnly ? { validateOnly: true } : {}),
    };
    await adsRequest(session, 'campaignBudgets:mutate', body, { retrySafe: validateOnly === true }).catch((error: unknown) => {
      throw refusalOf(error, campaign);
    });
  },
};
