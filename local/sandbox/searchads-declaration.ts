import type { Account as AdsAccount } from './searchads-state.ts';
import type { SandboxResponse } from './server.ts';

/**
 * The account-wide EU political-advertising block on the search-ads sandbox (contracts: search ads
 * §2.3a): an account with a campaign marked undeclared (`missingEuDeclaration`, set through
 * `POST /__sandbox/undeclared`) refuses every campaign and budget mutate with
 * `mutateError.EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED`, except updates whose mask is exactly
 * `contains_eu_political_advertising`; GAQL reads `campaign.missing_eu_political_advertising_declaration`.
 */
type Row = Record<string, unknown>;
type Invalid = (category: string, value: string, message: string, location?: Array<{ fieldName: string; index?: number }>) => SandboxResponse;

export const DECLARATION_FIELD = 'contains_eu_political_advertising';
export const DECLARATION_VALUES = ['CONTAINS_EU_POLITICAL_ADVERTISING', 'DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING'];

const undeclared = (account: AdsAccount) =>
  [...account.resources.entries()].filter(
    ([, resource]) => resource.kind === 'campaigns' && resource.data.missingEuDeclaration === true && resource.data.status !== 'REMOVED',
  );

/** Whether the account holds a campaign without its declaration: every write is refused until it is declared. */
export const hasUndeclared = (account: AdsAccount) => undeclared(account).length > 0;

/** Whether an operation only declares (a campaign update whose mask is exactly the declaration). */
const onlyDeclares = (operation: Row) => {
  const inner = (operation.campaignOperation as Row | undefined) ?? operation;
  return inner.update !== undefined && String(inner.updateMask ?? '').trim() === DECLARATION_FIELD;
};

/** The block's refusal of a mutate of `operations` in `account`, or undefined when it may go on. */
export function declarationBlock(account: AdsAccount, operations: Row[], invalid: Invalid, field = 'mutate_operations'): SandboxResponse | undefined {
  if (undeclared(account).length === 0 || (operations.length > 0 && operations.every(onlyDeclares))) return undefined;
  return invalid('mutateError', 'EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED', 'The account has campaigns without an EU political advertising declaration.', [
    { fieldName: field, index: 0 },
  ]);
}

/** `googleAds:search` for the undeclared campaigns; undefined for any other query. */
export function searchUndeclared(query: string, account: AdsAccount): SandboxResponse | undefined {
  if (!/campaign\.missing_eu_political_advertising_declaration\s*=\s*TRUE/i.test(query)) return undefined;
  const results = undeclared(account).map(([name, resource]) => ({
    campaign: { resourceName: name, id: name.split('/').pop(), name: resource.data.name, missingEuPoliticalAdvertisingDeclaration: true },
  }));
  return {
    status: 200,
    body: { ...(results.length ? { results } : {}), fieldMask: 'campaign.id,campaign.name,campaign.missingEuPoliticalAdvertisingDeclaration' },
  };
}

/** `POST /__sandbox/undeclared {customerId, campaignIds}`: those campaigns of the account lose their declaration. */
export function markUndeclared(fields: Row, accountOf: (cid: string) => AdsAccount): SandboxResponse {
  const cid = String(fields.customerId ?? '');
  const ids = Array.isArray(fields.campaignIds) ? fields.campaignIds.map(String) : [];
  if (!/^\d{10}$/.test(cid) || ids.length === 0) return { status: 400, body: { error: 'send {customerId (10 digits), campaignIds: [ids]}' } };
  const account = accountOf(cid);
  const missing = ids.filter((id) => account.resources.get(`customers/${cid}/campaigns/${id}`)?.kind !== 'campaigns');
  if (missing.length > 0) return { status: 404, body: { error: `no such campaigns: ${missing.join(', ')}` } };
  for (const id of ids) (account.resources.get(`customers/${cid}/campaigns/${id}`) as { data: Row }).data.missingEuDeclaration = true;
  return { status: 200, body: { undeclared: ids } };
}
