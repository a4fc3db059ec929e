import type { Row } from './social-data.ts';
import { type GraphHandler, page, requestedFields, unknownObject } from './social-graph.ts';

/**
 * The social sandbox's datasets (pixels), where CRM events go (docs/conversions.md): each ad account's
 * `adspixels` and each business's `owned_pixels`, seeded for the demo account and set by a test
 * through `POST /__sandbox/datasets`.
 */
export interface DatasetState {
  /** ad account id → its datasets */
  accounts: Map<string, Row[]>;
  /** business id → the datasets it owns */
  businesses: Map<string, Row[]>;
  /** ad account id → its business */
  accountBusiness: Map<string, string>;
}

export const DEMO_DATASET_ID = '771122334455667';
export const DEMO_BUSINESS_ID = '880011223344556';

export function seedDatasets(demoAccount: string): DatasetState {
  const owner = { id: DEMO_BUSINESS_ID, name: 'Example Outfitters Business' };
  return {
    accounts: new Map([
      [
        demoAccount,
        [
          {
            id: DEMO_DATASET_ID,
            name: 'Example Outfitters CRM events',
            is_unavailable: false,
            owner_business: owner,
            creation_time: '2026-01-05T10:00:00+0000',
          },
          { id: '771122334455668', name: 'Retired website pixel', is_unavailable: true, owner_business: owner, creation_time: '2024-02-01T10:00:00+0000' },
        ],
      ],
    ]),
    businesses: new Map([[DEMO_BUSINESS_ID, [{ id: '771122334455669', name: 'Business-wide CRM dataset', is_unavailable: false, owner_business: owner }]]]),
    accountBusiness: new Map([[demoAccount, DEMO_BUSINESS_ID]]),
  };
}

/** `GET act_{id}/adspixels`: the account's datasets, paged (none for an account the sandbox was not given any). */
export const accountDatasets: GraphHandler<{ datasets: DatasetState }> = (call, state, { account }) => {
  const rows = state.datasets.accounts.get(account as string) ?? [];
  const fields = requestedFields(call, 'AdsPixel');
  if (!Array.isArray(fields)) return fields;
  return page(call, `act_${account}/adspixels`, rows, fields);
};

/** `GET {business}/owned_pixels`: the datasets a business owns. */
export const businessDatasets: GraphHandler<{ datasets: DatasetState }> = (call, state, { node }) => {
  const rows = state.datasets.businesses.get(node as string);
  if (!rows) return unknownObject('GET', node as string);
  const fields = requestedFields(call, 'AdsPixel');
  if (!Array.isArray(fields)) return fields;
  return page(call, `${node}/owned_pixels`, rows, fields);
};

/** `POST /__sandbox/datasets {account, datasets?, business?, businessDatasets?}`: what an account (and its business) can send to. */
export function setDatasets(fields: Record<string, unknown>, state: DatasetState) {
  const account = String(fields.account ?? '');
  if (!/^\d+$/.test(account)) return { status: 400, body: { error: 'account (digits) is required' } };
  if (Array.isArray(fields.datasets)) state.accounts.set(account, fields.datasets as Row[]);
  if (typeof fields.business === 'string') {
    state.accountBusiness.set(account, fields.business);
    if (Array.isArray(fields.businessDatasets)) state.businesses.set(fields.business, fields.businessDatasets as Row[]);
  }
  return { status: 200, body: { account, datasets: state.accounts.get(account) ?? [] } };
}
