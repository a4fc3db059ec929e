import { randomBytes } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { SearchadsConnectState } from './searchads-connect.ts';
import type { ProtoProblem } from './searchads-proto.ts';
import type { SandboxResponse } from './server.ts';

/** What the search-ads sandbox holds, and the pieces every one of its routes uses (its answers' ids, days, refusals). */
export type Row = Record<string, unknown>;
export const DAYS_OF_METRICS = 90;

export interface Account {
  nextId: number;
  /** resource name → resource (committed) */
  resources: Map<string, { kind: string; data: Row }>;
}

export interface SearchadsState {
  tokens: Map<string, number>;
  /** Google sign-in: codes, issued grants and their people, revoked grants */
  connect: SearchadsConnectState;
  accounts: Map<string, Account>;
  /** mutate requests that committed, for tests of atomicity */
  commits: number;
}

export const requestId = () => randomBytes(16).toString('base64url').slice(0, 22);
export const day = (offset: number) => clock.today(offset);

export function newAccount(cid: string): Account {
  const account: Account = { nextId: 100, resources: new Map() };
  const put = (kind: string, id: string, data: Row) => account.resources.set(`customers/${cid}/${kind}/${id}`, { kind, data });
  // the actions CRM events can go to (UPLOAD_CLICKS, enabled, the customer's own) beside those they cannot
  const action = (id: string, name: string, type: string, extra: Row = {}) =>
    put('conversionActions', id, { status: 'ENABLED', name, type, clickThroughLookbackWindowDays: '90', ownerCustomer: `customers/${cid}`, ...extra });
  action('6543210987', 'CRM - Qualified lead', 'UPLOAD_CLICKS', { category: 'QUALIFIED_LEAD' });
  action('6543210988', 'Website purchase', 'WEBPAGE', { category: 'PURCHASE' });
  action('6543210989', 'CRM - Won deal', 'UPLOAD_CLICKS', { category: 'CONVERTED_LEAD', clickThroughLookbackWindowDays: '30' });
  action('6543210990', 'CRM - Manager funnel', 'UPLOAD_CLICKS', { ownerCustomer: 'customers/9876543210' });
  action('6543210991', 'CRM - Old funnel', 'UPLOAD_CLICKS', { status: 'REMOVED' });
  put('assets', '176543210987', { leadFormAsset: {} });
  put('assetSets', '8765432109', { type: 'BUSINESS_PROFILE_DYNAMIC_LOCATION_GROUP' });
  put('campaignBudgets', '14567890100', {
    name: 'Always-on brand budget',
    amountMicros: '50000000',
    period: 'DAILY',
    explicitlyShared: false,
    status: 'ENABLED',
  });
  put('campaignBudgets', '14567890101', { name: 'Spring leads budget', amountMicros: '30000000', period: 'DAILY', explicitlyShared: false, status: 'ENABLED' });
  put('campaignBudgets', '14567890102', {
    name: 'Shared regional budget',
    amountMicros: '80000000',
    period: 'DAILY',
    explicitlyShared: true,
    status: 'ENABLED',
  });
  put('campaignBudgets', '14567890103', {
    name: 'Launch total budget',
    totalAmountMicros: '900000000',
    period: 'CUSTOM_PERIOD',
    explicitlyShared: false,
    status: 'ENABLED',
  });
  const budget = (id: string) => `customers/${cid}/campaignBudgets/${id}`;
  put('campaigns', '21234567890', {
    campaignBudget: budget('14567890100'),
    startDateTime: '2026-01-05 00:00:00',
    name: 'Always-on brand search',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    primaryStatus: 'LIMITED',
    primaryStatusReasons: ['BUDGET_CONSTRAINED'],
    display: false,
  });
  put('campaigns', '21234567892', {
    campaignBudget: budget('14567890102'),
    name: 'Regional North',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    display: false,
  });
  put('campaigns', '21234567893', {
    campaignBudget: budget('14567890102'),
    name: 'Regional South',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    display: false,
  });
  put('campaigns', '21234567894', { campaignBudget: budget('14567890103'), name: 'Launch week', status: 'ENABLED', servingStatus: 'SERVING', display: false });
  put('campaigns', '21234567891', {
    campaignBudget: budget('14567890101'),
    name: 'Spring Leads 2026',
    status: 'PAUSED',
    servingStatus: 'SERVING',
    primaryStatus: 'PAUSED',
    primaryStatusReasons: ['CAMPAIGN_PAUSED'],
    display: true,
  });
  return account;
}

export function failure(
  status: number,
  code: string,
  errors: Array<{ errorCode: Record<string, string>; message: string; location?: ProtoProblem['path'] }>,
): SandboxResponse {
  const id = requestId();
  return {
    status,
    headers: { 'request-id': id },
    body: {
      error: {
        code: status,
        message: status === 400 ? 'Request contains an invalid argument.' : code,
        status: code,
        details: [
          {
            '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
            errors: errors.map(({ location, ...error }) => ({ ...error, ...(location ? { location: { fieldPathElements: location } } : {}) })),
            requestId: id,
          },
        ],
      },
    },
  };
}

export const invalid = (category: string, value: string, message: string, location?: ProtoProblem['path']) =>
  failure(400, 'INVALID_ARGUMENT', [{ errorCode: { [category]: value }, message, ...(location ? { location } : {}) }]);

/** A Data Manager request the sandbox accepted, until its status is read (searchads-datamanager.ts, searchads-conversion-events.ts). */
export interface AcceptedRequest {
  kind: 'ingest' | 'remove' | 'removeAll' | 'events';
  destination: Row;
  readyAt: number;
  recordCount: number;
  identifierCount: number;
  refused: Record<string, number>;
  matched: number;
}
