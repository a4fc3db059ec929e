import { DECLARATION_VALUES, searchUndeclared } from './searchads-declaration.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * Campaign control on the search-ads sandbox (docs/platforms.md, "Search ads: campaign control"): `googleAds:search` on
 * `campaign` with its budget and the customer's currency, and on `currency_constant`;
 * `campaigns:mutate` (an `update` of `status` with its updateMask, or a `remove`) and
 * `campaignBudgets:mutate` (`amountMicros` with its updateMask), with the platform's rules: a removed
 * campaign refuses every operation, a non-shared budget follows its campaign's status, an amount must
 * be a multiple of the currency's billable unit and at least the per-day minimum, a custom-period
 * budget takes no amount, a shared budget changes for every campaign that uses it, and
 * `validateOnly` checks all of it and changes nothing.
 */
type Row = Record<string, unknown>;

export interface AdsAccount {
  nextId: number;
  resources: Map<string, { kind: string; data: Row }>;
}

type Invalid = (category: string, value: string, message: string, location?: Array<{ fieldName: string; index?: number }>) => SandboxResponse;

/** Customers in other currencies, to exercise every unit (JPY whole units, KWD three decimals). */
export const SANDBOX_SEARCHADS_CURRENCIES: Record<string, { currency: string; timeZone: string }> = {
  '7000000001': { currency: 'JPY', timeZone: 'Asia/Tokyo' },
  '7000000002': { currency: 'KWD', timeZone: 'Asia/Kuwait' },
};
const BILLABLE_UNIT_MICROS: Record<string, bigint> = { USD: 10_000n, EUR: 10_000n, GBP: 10_000n, JPY: 1_000_000n, KWD: 1_000n };
/** the per-day minimum of a daily budget, in micros: one unit of the currency (100 yen) */
const minimumMicros = (currency: string) => (currency === 'JPY' ? 100_000_000n : 1_000_000n);

export const customerOf = (cid: string) => SANDBOX_SEARCHADS_CURRENCIES[cid] ?? { currency: 'USD', timeZone: 'America/Denver' };
export const billableUnitOf = (currency: string) => BILLABLE_UNIT_MICROS[currency] ?? 10_000n;

const snakeToCamel = (path: string) => path.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Only the selected fields, as the platform answers: `campaign.start_date_time` → `campaign.startDateTime`. */
function project(row: Record<string, Row>, selected: string[]): Row {
  const out: Record<string, Row> = {};
  for (const field of selected) {
    const [resource = '', name = ''] = snakeToCamel(field).split('.');
    const value = row[resource]?.[name];
    if (value === undefined) continue;
    out[resource] ??= { resourceName: row[resource]?.resourceName as string };
    (out[resource] as Row)[name] = value;
  }
  return out;
}

function referencesOf(account: AdsAccount, budget: string): string[] {
  return [...account.resources.entries()]
    .filter(([, resource]) => resource.kind === 'campaigns' && resource.data.campaignBudget === budget && resource.data.status !== 'REMOVED')
    .map(([name]) => name);
}

/** `googleAds:search` on campaign (one campaign by id) or currency_constant; undefined for any other resource. */
export function searchCampaigns(request: SandboxRequest, account: AdsAccount, cid: string, invalid: Invalid): SandboxResponse | undefined {
  const query = String(request.fields.query ?? '');
  const from = /\bFROM\s+(campaign|currency_constant|customer)\s*(?:WHERE|$)/i.exec(query)?.[1]?.toLowerCase();
  if (!from) return undefined;
  const selected = (/^\s*SELECT\s+(.+?)\s+FROM\s/is.exec(query)?.[1] ?? '').split(',').map((field) => field.trim());
  if (from === 'customer') {
    const { currency, timeZone } = customerOf(cid);
    const row = { customer: { resourceName: `customers/${cid}`, id: cid, currencyCode: currency, timeZone } };
    return { status: 200, body: { results: [project(row, selected)], fieldMask: selected.map(snakeToCamel).join(',') } };
  }
  if (from === 'currency_constant') {
    const code = /currency_constant\.code\s*=\s*'([A-Z]{3})'/.exec(query)?.[1];
    if (!code) return invalid('queryError', 'EXPECTED_FILTER', 'This sandbox answers currency_constant for one code.');
    const row = { currencyConstant: { resourceName: `currencyConstants/${code}`, code, billableUnitMicros: billableUnitOf(code).toString() } };
    return { status: 200, body: { results: [project(row, selected)], fieldMask: selected.map(snakeToCamel).join(',') } };
  }
  const undeclared = searchUndeclared(query, account);
  if (undeclared) return undeclared;
  const some = /campaign\.id\s+IN\s*\(([^)]*)\)/i.exec(query)?.[1];
  if (some !== undefined) {
    if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(some))
      return invalid('queryError', 'INVALID_VALUE_WITH_IN_OPERATOR', 'Invalid value with IN operator: a list of numbers is expected.');
    const rows = some
      .split(',')
      .map((id) => id.trim())
      .flatMap((id) => {
        const row = campaignRow(account, cid, id);
        return row ? [project(row, selected)] : [];
      });
    return { status: 200, body: { ...(rows.length ? { results: rows } : {}), fieldMask: selected.map(snakeToCamel).join(',') } };
  }
  const id = /campaign\.id\s*=\s*(\d+)/i.exec(query)?.[1];
  if (!id) return invalid('queryError', 'EXPECTED_FILTER', 'This sandbox answers campaign queries for one campaign.id or campaign.id IN (…).');
  const row = campaignRow(account, cid, id);
  if (!row) return { status: 200, body: { fieldMask: selected.map(snakeToCamel).join(',') } };
  return { status: 200, body: { results: [project(row, selected)], fieldMask: selected.map(snakeToCamel).join(',') } };
}

/** A campaign's row with its customer and budget, as GAQL answers `FROM campaign` (undefined: not in the account). */
function campaignRow(account: AdsAccount, cid: string, id: string): Record<string, Row> | undefined {
  const name = `customers/${cid}/campaigns/${id}`;
  const campaign = account.resources.get(name);
  if (!campaign) return undefined;
  const budgetName = campaign.data.campaignBudget as string | undefined;
  const budget = budgetName ? account.resources.get(budgetName) : undefined;
  const { currency, timeZone } = customerOf(cid);
  return {
    customer: { resourceName: `customers/${cid}`, currencyCode: currency, timeZone },
    campaign: {
      resourceName: name,
      id,
      name: campaign.data.name,
      status: campaign.data.status ?? 'ENABLED',
      ...(campaign.data.startDateTime ? { startDateTime: campaign.data.startDateTime } : {}),
      ...(budgetName ? { campaignBudget: budgetName } : {}),
    },
    ...(budget && budgetName
      ? {
          campaignBudget: {
            resourceName: budgetName,
            status: budget.data.status ?? 'ENABLED',
            period: budget.data.period ?? 'DAILY',
            ...(budget.data.period === 'CUSTOM_PERIOD' ? { totalAmountMicros: budget.data.totalAmountMicros } : { amountMicros: budget.data.amountMicros }),
            explicitlyShared: budget.data.explicitlyShared === true,
            referenceCount: String(referencesOf(account, budgetName).length),
          },
        }
      : {}),
  };
}

const at = (index: number, ...fields: string[]) => [{ fieldName: 'operations', index }, ...fields.map((fieldName) => ({ fieldName }))];
const maskOf = (operation: Row) =>
  String(operation.updateMask ?? '')
    .split(',')
    .map((path) => snakeToCamel(path.trim()))
    .filter(Boolean);

/** `campaigns:mutate`: status updates and removes, atomically. */
export function mutateCampaigns(request: SandboxRequest, account: AdsAccount, invalid: Invalid): { answer: SandboxResponse; committed: boolean } {
  const body = request.fields as Row;
  const operations = (body.operations as Row[] | undefined) ?? [];
  if (operations.length === 0) return { answer: invalid('mutateError', 'NO_OPERATIONS', 'The request has no operations.'), committed: false };
  const changes: Array<() => void> = [];
  const results: Row[] = [];
  for (const [index, operation] of operations.entries()) {
    const name = String(operation.remove ?? (operation.update as Row | undefined)?.resourceName ?? '');
    const campaign = account.resources.get(name);
    if (campaign?.kind !== 'campaigns')
      return {
        answer: invalid('mutateError', 'RESOURCE_NOT_FOUND', 'Resource was not found.', at(index, operation.remove ? 'remove' : 'update', 'resource_name')),
        committed: false,
      };
    if (campaign.data.status === 'REMOVED')
      return {
        answer: invalid(
          'operationAccessDeniedError',
          'OPERATION_NOT_PERMITTED_FOR_REMOVED_RESOURCE',
          'Operation is not allowed on a removed resource.',
          at(index),
        ),
        committed: false,
      };
    const budgetName = campaign.data.campaignBudget as string | undefined;
    const budget = budgetName ? account.resources.get(budgetName) : undefined;
    const followsCampaign = budget && budget.data.explicitlyShared !== true;
    if (operation.remove !== undefined) {
      changes.push(() => {
        campaign.data.status = 'REMOVED';
        if (followsCampaign) budget.data.status = 'REMOVED';
      });
    } else {
      const update = operation.update as Row;
      const mask = maskOf(operation);
      if (mask.length === 0)
        return { answer: invalid('fieldMaskError', 'FIELD_MASK_MISSING', 'The field mask is missing.', at(index, 'update_mask')), committed: false };
      const unknown = mask.find((path) => path !== 'status' && path !== 'containsEuPoliticalAdvertising');
      if (unknown)
        return {
          answer: invalid(
            'fieldMaskError',
            'FIELD_NOT_FOUND',
            `This sandbox updates campaign status and declaration only, not ${unknown}.`,
            at(index, 'update_mask'),
          ),
          committed: false,
        };
      if (mask.includes('containsEuPoliticalAdvertising')) {
        const declared = update.containsEuPoliticalAdvertising;
        if (!DECLARATION_VALUES.includes(String(declared)))
          return {
            answer: invalid(
              'fieldError',
              'REQUIRED',
              'contains_eu_political_advertising must be declared.',
              at(index, 'update', 'contains_eu_political_advertising'),
            ),
            committed: false,
          };
        changes.push(() => {
          campaign.data.containsEuPoliticalAdvertising = declared;
          delete campaign.data.missingEuDeclaration;
        });
        if (!mask.includes('status')) {
          results.push({ resourceName: name });
          continue;
        }
      }
      const status = update.status;
      if (status !== 'ENABLED' && status !== 'PAUSED')
        return { answer: invalid('campaignError', 'INVALID_STATUS_CHANGE', 'Invalid status change.', at(index, 'update', 'status')), committed: false };
      changes.push(() => {
        campaign.data.status = status;
        campaign.data.primaryStatus = status === 'PAUSED' ? 'PAUSED' : 'ELIGIBLE';
      });
    }
    results.push({ resourceName: name });
  }
  if (body.validateOnly === true) return { answer: { status: 200, body: {} }, committed: false };
  for (const change of changes) change();
  return { answer: { status: 200, body: { results } }, committed: true };
}

/** `campaignBudgets:mutate`: amount updates, atomically. */
export function mutateBudgets(request: SandboxRequest, account: AdsAccount, cid: string, invalid: Invalid): { answer: SandboxResponse; committed: boolean } {
  const body = request.fields as Row;
  const operations = (body.operations as Row[] | undefined) ?? [];
  if (operations.length === 0) return { answer: invalid('mutateError', 'NO_OPERATIONS', 'The request has no operations.'), committed: false };
  const { currency } = customerOf(cid);
  const changes: Array<() => void> = [];
  const results: Row[] = [];
  for (const [index, operation] of operations.entries()) {
    const update = (operation.update as Row | undefined) ?? {};
    const name = String(update.resourceName ?? '');
    const budget = account.resources.get(name);
    if (budget?.kind !== 'campaignBudgets')
      return { answer: invalid('mutateError', 'RESOURCE_NOT_FOUND', 'Resource was not found.', at(index, 'update', 'resource_name')), committed: false };
    if (budget.data.status === 'REMOVED')
      return { answer: invalid('campaignBudgetError', 'CAMPAIGN_BUDGET_REMOVED', 'The budget was removed.', at(index)), committed: false };
    const mask = maskOf(operation);
    if (mask.length === 0)
      return { answer: invalid('fieldMaskError', 'FIELD_MASK_MISSING', 'The field mask is missing.', at(index, 'update_mask')), committed: false };
    if (mask.some((path) => path !== 'amountMicros'))
      return {
        answer: invalid('fieldMaskError', 'FIELD_NOT_FOUND', 'This sandbox updates a budget’s amount only.', at(index, 'update_mask')),
        committed: false,
      };
    if (budget.data.period === 'CUSTOM_PERIOD')
      return {
        answer: invalid(
          'campaignBudgetError',
          'BUDGET_AMOUNT_MUST_BE_UNSET_FOR_CUSTOM_BUDGET_PERIOD',
          'A custom-period budget has a total amount only.',
          at(index, 'update', 'amount_micros'),
        ),
        committed: false,
      };
    const raw = String(update.amountMicros ?? '');
    if (!/^-?\d+$/.test(raw))
      return { answer: invalid('requestError', 'INVALID_INPUT', 'amount_micros must be an int64.', at(index, 'update', 'amount_micros')), committed: false };
    const micros = BigInt(raw);
    if (micros < 0n)
      return {
        answer: invalid('campaignBudgetError', 'NEGATIVE_MONEY_AMOUNT', 'The amount is negative.', at(index, 'update', 'amount_micros')),
        committed: false,
      };
    if (micros % billableUnitOf(currency) !== 0n)
      return {
        answer: invalid(
          'campaignBudgetError',
          'NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT',
          'The budget is not a multiple of the minimum currency unit.',
          at(index, 'update', 'amount_micros'),
        ),
        committed: false,
      };
    const minimum = minimumMicros(currency);
    if (micros < minimum) {
      return {
        answer: {
          status: 400,
          body: {
            error: {
              code: 400,
              message: 'Request contains an invalid argument.',
              status: 'INVALID_ARGUMENT',
              details: [
                {
                  '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
                  errors: [
                    {
                      errorCode: { campaignBudgetError: 'BUDGET_BELOW_PER_DAY_MINIMUM' },
                      message: 'Budget amount or total amount must be above this campaign’s per-day minimum.',
                      trigger: { int64Value: raw },
                      location: { fieldPathElements: at(index, 'update', 'amount_micros') },
                      details: {
                        budgetPerDayMinimumErrorDetails: {
                          budgetPerDayMinimumMicros: minimum.toString(),
                          currencyCode: currency,
                          failedBudgetAmountMicros: raw,
                          minimumBudgetAmountMicros: minimum.toString(),
                        },
                      },
                    },
                  ],
                  requestId: 'SandboxBudgetMinimum',
                },
              ],
            },
          },
        },
        committed: false,
      };
    }
    changes.push(() => {
      budget.data.amountMicros = raw;
    });
    results.push({ resourceName: name });
  }
  if (body.validateOnly === true) return { answer: { status: 200, body: {} }, committed: false };
  for (const change of changes) change();
  return { answer: { status: 200, body: { results } }, committed: true };
}
