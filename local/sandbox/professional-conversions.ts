import type { SandboxRequest, SandboxResponse } from './server.ts';
import { restliError } from './professional-restli.ts';

/**
 * The professional sandbox's conversion rules (docs/conversions.md): each ad account's rules as
 * `GET /rest/conversions?q=account` lists them (Conversions API rules beside Insight Tag ones, enabled
 * or not), seeded for the demo account and set by a test through `POST /__sandbox/conversion-rules`.
 * The Conversions API needs `rw_conversions`: a token issued through consent has it when it was
 * granted; a token given as it is has it unless it says NOCONVERSIONS.
 */
export interface ConversionRule {
  id: number;
  name: string;
  account: string;
  conversionMethod: string;
  enabled: boolean;
  type: string;
  campaigns: string[];
}

export interface ConversionRulesState {
  /** ad account id → its rules */
  rules: Map<string, ConversionRule[]>;
}

export const DEMO_CONVERSION_RULE_ID = 700000101;

export function seedConversionRules(demoAccount: string): ConversionRulesState {
  const account = `urn:li:sponsoredAccount:${demoAccount}`;
  const rule = (id: number, name: string, type: string, conversionMethod = 'CONVERSIONS_API', enabled = true): ConversionRule => ({
    id,
    name,
    account,
    conversionMethod,
    enabled,
    type,
    campaigns: [],
  });
  return {
    rules: new Map([
      [
        demoAccount,
        [
          rule(DEMO_CONVERSION_RULE_ID, 'CRM - Marketing qualified lead', 'MARKETING_QUALIFIED_LEAD'),
          rule(700000102, 'CRM - Sales qualified lead', 'SALES_QUALIFIED_LEAD'),
          rule(700000103, 'Website sign-ups', 'SIGN_UP', 'INSIGHT_TAG'),
          rule(700000104, 'CRM - Old funnel', 'LEAD', 'CONVERSIONS_API', false),
        ],
      ],
    ]),
  };
}

export const canSendConversions = (token: string, granted: string[] | undefined) =>
  granted ? granted.includes('rw_conversions') : !token.includes('NOCONVERSIONS');

const DENIED = (method: string) =>
  restliError(403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: `Not enough permissions to access: conversions.${method}.20260801` });

/** `GET /rest/conversions?q=account&account=<URN>&start&count`: the account's rules, paged. */
export function listConversionRules(request: SandboxRequest, state: ConversionRulesState, mayConvert: boolean): SandboxResponse {
  if (!mayConvert) return DENIED('FINDER-account');
  if (request.query.get('q') !== 'account') return restliError(400, { status: 400, message: 'Missing or unknown finder: q=account is required' });
  const account = /^urn:li:sponsoredAccount:(\d+)$/.exec(request.query.get('account') ?? '')?.[1];
  if (!account) return restliError(400, { status: 400, message: 'Invalid value for param: account' });
  const all = state.rules.get(account) ?? [];
  const start = Number(request.query.get('start') ?? 0);
  const count = Math.min(Number(request.query.get('count') ?? 10), 100);
  return { status: 200, body: { paging: { start, count, links: [], total: all.length }, elements: all.slice(start, start + count) } };
}

/** `POST /__sandbox/conversion-rules {account, rules}`: the rules of an account. */
export function setConversionRules(fields: Record<string, unknown>, state: ConversionRulesState): SandboxResponse {
  const account = String(fields.account ?? '');
  if (!/^\d+$/.test(account) || !Array.isArray(fields.rules)) return { status: 400, body: { error: 'account (digits) and rules are required' } };
  state.rules.set(account, fields.rules as ConversionRule[]);
  return { status: 200, body: { account, rules: fields.rules } };
}
