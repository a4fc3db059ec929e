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
  /** every conversion event received, in order */
  received: ReceivedConversion[];
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
    received: [],
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

/** An element as the sandbox received it (GET /__sandbox/conversions lists them; the platform keeps no deduplication of its own). */
export interface ReceivedConversion {
  element: Record<string, unknown>;
}

const RULE_URN = /^urn:lla:llaPartnerConversion:(\d+)$/;
const LEAD_URN = /^urn:li:leadGenFormResponse:[A-Za-z0-9-]+$/;
const HEX64 = /^[0-9a-f]{64}$/;
const DAY_MS = 86_400_000;

/** The 422 text of one element's schema problems, as the platform words it (`Index: N, ERROR :: /path :: …`). */
function schemaProblems(element: Record<string, unknown>, index: number, now: number): string | undefined {
  const problems: string[] = [];
  const at = element.conversionHappenedAt;
  if (typeof at !== 'number' || !Number.isInteger(at) || at < 1e12)
    problems.push('/conversionHappenedAt :: field is required but not found and has no default value');
  else if (at < now - 90 * DAY_MS) problems.push('/conversionHappenedAt :: conversion happened more than 90 days ago');
  const user = element.user as Record<string, unknown> | undefined;
  if (!user || !Array.isArray(user.userIds)) problems.push('/user/userIds :: field is required but not found and has no default value');
  else {
    for (const [position, id] of (user.userIds as Array<Record<string, unknown>>).entries())
      if (id.idType === 'SHA256_EMAIL' && !HEX64.test(String(id.idValue))) problems.push(`/user/userIds/${position}/idValue :: not a SHA-256 digest`);
    if (user.lead !== undefined && !LEAD_URN.test(String(user.lead))) problems.push('/user/lead :: not a lead form response URN');
    if ((user.userIds as unknown[]).length === 0 && user.lead === undefined && user.userInfo === undefined) problems.push('/user :: no identifier');
  }
  const value = element.conversionValue as Record<string, unknown> | undefined;
  if (value && (typeof value.amount !== 'string' || typeof value.currencyCode !== 'string'))
    problems.push('/conversionValue/amount :: field is required but not found and has no default value');
  return problems.length > 0 ? `Index: ${index}, ${problems.map((problem) => `ERROR :: ${problem}`).join('\n')}` : undefined;
}

/** `POST /rest/conversionEvents` (BATCH_CREATE): every element valid or the whole batch refused; kept, one status each. */
export function createConversionEvents(request: SandboxRequest, state: ConversionRulesState, mayConvert: boolean, now: number): SandboxResponse {
  if (!mayConvert) return DENIED('BATCH_CREATE');
  if (request.headers['x-restli-method'] !== 'BATCH_CREATE')
    return restliError(400, { status: 400, message: 'This sandbox takes conversion events as BATCH_CREATE.' });
  const elements = (request.fields.elements ?? []) as Array<Record<string, unknown>>;
  if (!Array.isArray(elements) || elements.length === 0 || elements.length > 5000)
    return restliError(400, { status: 400, message: 'A batch holds 1 to 5000 elements.' });
  const rules = [...state.rules.values()].flat();
  for (const [index, element] of elements.entries()) {
    const ruleId = RULE_URN.exec(String(element.conversion ?? ''))?.[1];
    const rule = rules.find((candidate) => String(candidate.id) === ruleId);
    if (rule?.conversionMethod !== 'CONVERSIONS_API' || !rule.enabled)
      return restliError(400, {
        status: 400,
        message: `Incorrect conversions information provided. Conversion's method should be CONVERSIONS_API, indices [${index}] (0-indexed)`,
      });
    const problems = schemaProblems(element, index, now);
    if (problems) return restliError(422, { status: 422, message: problems });
  }
  for (const element of elements) state.received.push({ element });
  return { status: 200, body: { elements: elements.map(() => ({ status: 201 })) } };
}
