import type { Row } from './social-data.ts';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxResponse } from './server.ts';
import { type GraphHandler, graphError, page, requestedFields, unknownObject } from './social-graph.ts';

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
  /** every event received, in order (a repeat too: the platform counts it once) */
  received: ReceivedEvent[];
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
    received: [],
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

/** An event as the sandbox received it, with its dataset (GET /__sandbox/conversions lists them). */
export interface ReceivedEvent {
  datasetId: string;
  event: Record<string, unknown>;
  /** the lead id as its digits were written in the body (JSON numbers of 16 digits lose precision when parsed) */
  leadIdDigits?: string;
  testEventCode?: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const HASHED_KEYS = ['em', 'ph', 'fn', 'ln', 'ct', 'st', 'zp', 'country'];
const invalid = (subcode: number, title: string, message: string) =>
  graphError(100, 'Invalid parameter', { error_subcode: subcode, error_user_title: title, error_user_msg: message, is_transient: false }, 400);

/** What is wrong with one event, as the platform refuses a request for it (the whole request). */
function problemOf(event: Record<string, unknown>, nowSeconds: number): SandboxResponse | undefined {
  const time = event.event_time;
  if (typeof time !== 'number' || !Number.isInteger(time)) return invalid(2804001, 'Invalid event time', 'event_time must be a UNIX timestamp in seconds.');
  if (time < nowSeconds - 7 * 86_400)
    return invalid(
      2804003,
      'Event Timestamp Too Old',
      'The timestamp for this event is too far in the past. Events need to be sent from your server within 7 days of when they occurred. Enter a timestamp that has occurred within the last 7 days.',
    );
  if (typeof event.event_name !== 'string' || event.event_name === '') return invalid(2804007, 'Missing event name', 'event_name is required.');
  if (event.action_source !== 'system_generated') return invalid(2804016, 'Invalid action source', 'CRM events need action_source system_generated.');
  const custom = (event.custom_data ?? {}) as Record<string, unknown>;
  if (custom.event_source !== 'crm' || typeof custom.lead_event_source !== 'string')
    return invalid(2804017, 'Missing CRM fields', 'custom_data.event_source crm and custom_data.lead_event_source are required.');
  if (custom.value !== undefined && (typeof custom.value !== 'number' || typeof custom.currency !== 'string'))
    return invalid(2804019, 'Invalid value', 'custom_data.value is a number and needs a currency.');
  const user = (event.user_data ?? {}) as Record<string, unknown>;
  for (const key of HASHED_KEYS)
    if (user[key] !== undefined && !(Array.isArray(user[key]) && (user[key] as unknown[]).every((value) => typeof value === 'string' && HEX64.test(value))))
      return invalid(2804048, 'Invalid customer information', `user_data.${key} must be an array of SHA-256 digests.`);
  for (const key of ['fbc', 'fbp'])
    if (typeof user[key] === 'string' && HEX64.test(user[key] as string))
      return invalid(2804048, 'Invalid customer information', `user_data.${key} must not be hashed.`);
  if (user.lead_id !== undefined && typeof user.lead_id !== 'number')
    return invalid(2804048, 'Invalid lead id', 'user_data.lead_id is the lead id, a number, not hashed.');
  if (!['lead_id', 'em', 'ph', 'fbc', 'fbp'].some((key) => user[key] !== undefined))
    return invalid(2804050, 'Insufficient customer information', 'The event does not have enough customer information to be matched.');
  return undefined;
}

/** `POST {dataset}/events`: at most 1,000 events, all valid or the request refused; kept, and each (dataset, event_id, event_name) counted once. */
export const datasetEvents: GraphHandler<{ datasets: DatasetState }> = (call, state, { node }) => {
  const datasetId = node as string;
  const known = [...state.datasets.accounts.values(), ...state.datasets.businesses.values()].some((rows) =>
    rows.some((row) => row.id === datasetId && !row.is_unavailable),
  );
  if (!known) return unknownObject('POST', datasetId);
  const data = typeof call.params.data === 'string' ? (JSON.parse(call.params.data) as unknown) : call.params.data;
  if (!Array.isArray(data) || data.length === 0) return graphError(100, '(#100) The parameter data is required');
  if (data.length > 1000) return graphError(100, '(#100) You can send up to 1000 events in a request.');
  const nowSeconds = Math.floor(clock.now() / 1000);
  for (const event of data as Array<Record<string, unknown>>) {
    const problem = problemOf(event, nowSeconds);
    if (problem) return problem;
  }
  // lead ids as written: a JSON number past 2^53 parses to another number
  const digits = [...call.request.body.toString('utf8').matchAll(/"lead_id"\s*:\s*(\d+)/g)].map((match) => match[1] as string);
  let fresh = 0;
  for (const [index, event] of (data as Array<Record<string, unknown>>).entries()) {
    const duplicate = state.datasets.received.some(
      (seen) => seen.datasetId === datasetId && seen.event.event_id === event.event_id && seen.event.event_name === event.event_name,
    );
    if (!duplicate) fresh++;
    state.datasets.received.push({
      datasetId,
      event,
      ...(digits[index] ? { leadIdDigits: digits[index] } : {}),
      ...(typeof call.params.test_event_code === 'string' ? { testEventCode: call.params.test_event_code } : {}),
    });
  }
  return { status: 200, body: { events_received: data.length, messages: [], fbtrace_id: `AFakeTrace${fresh}` } };
};
