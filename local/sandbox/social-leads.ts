import { clock } from '../../shared/core/clock.ts';
import { socialSignatureOf } from '../../shared/platforms/social/lead-webhooks.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';
import type { Row } from './social-data.ts';
import { type GraphHandler, graphError, unknownObject } from './social-graph.ts';

/**
 * The social platform's lead ads in the sandbox (docs/leads.md, "The sandboxes"): the app's Page
 * subscription (`/{app-id}/subscriptions`, verified by a GET to the callback first), a Page's
 * `subscribed_apps`, leads read by id with the Page's token, a form's questions, a Page's forms and a
 * form's leads by time; `POST /__sandbox/leads` makes leads of a form and, unless asked not to, sends
 * the signed `leadgen` webhook as the platform does (one POST, compact JSON, ids as strings).
 */
export interface SandboxLead {
  id: string;
  formId: string;
  pageId: string;
  createdMs: number;
  fieldData: Array<{ name: string; values: string[] }>;
  adId?: string;
}

export interface LeadsState {
  leads: Map<string, SandboxLead>;
  subscribedPages: Set<string>;
  /** the app's subscription to Page leadgen events: where the webhooks go */
  app?: { callbackUrl: string; verifyToken: string };
  /** Pages whose leads the business keeps from our app (its leads-access settings): reads answer (#200) */
  accessDenied: Set<string>;
  /** the webhook deliveries the sandbox made: their status */
  deliveries: Array<{ leadIds: string[]; status: number }>;
}

export const newLeadsState = (): LeadsState => ({ leads: new Map(), subscribedPages: new Set(), accessDenied: new Set(), deliveries: [] });

type LeadForms = Map<string, Row & { pageId: string }>;
interface Slice {
  leads: LeadsState;
  leadForms: LeadForms;
  pageTokens: Map<string, string>;
}

/** `POST|GET|DELETE /{page}/subscribed_apps`: only with the Page's own token. */
export const subscribedApps =
  (method: 'POST' | 'GET' | 'DELETE', appId: string): GraphHandler<Slice> =>
  (call, state, { node }) => {
    const pageId = node as string;
    if (state.pageTokens.get(call.token) !== pageId) return graphError(210, '(#210) A page access token is required to request this resource.');
    if (method === 'POST') {
      if (String(call.params.subscribed_fields ?? '') !== 'leadgen') return graphError(100, '(#100) Param subscribed_fields must be leadgen in this sandbox');
      state.leads.subscribedPages.add(pageId);
      return { status: 200, body: { success: true } };
    }
    if (method === 'DELETE') {
      state.leads.subscribedPages.delete(pageId);
      return { status: 200, body: { success: true } };
    }
    const installed = state.leads.subscribedPages.has(pageId);
    return { status: 200, body: { data: installed ? [{ id: appId, name: 'Ad campaign API (sandbox)', subscribed_fields: ['leadgen'] }] : [] } };
  };

const leadView = (lead: SandboxLead) => ({
  id: lead.id,
  created_time: new Date(lead.createdMs).toISOString().replace(/\.\d{3}Z$/, '+0000'),
  form_id: lead.formId,
  ...(lead.adId ? { ad_id: lead.adId, adset_id: lead.adId.replace(/01$/, '02'), campaign_id: lead.adId.replace(/01$/, '03') } : {}),
  is_organic: !lead.adId,
  platform: 'fb',
  field_data: lead.fieldData,
});

/** `GET /{lead}` (with the Page's token) and `GET /{form}?fields=questions`; undefined when the node is neither. */
export function leadNode(call: { token: string }, state: Slice, node: string): SandboxResponse | undefined {
  const lead = state.leads.leads.get(node);
  if (lead) {
    if (state.pageTokens.get(call.token) !== lead.pageId && !/^EAA(?!Page)/.test(call.token))
      return graphError(200, '(#200) Requires leads_retrieval permission', {}, 403);
    if (state.leads.accessDenied.has(lead.pageId)) return graphError(200, '(#200) Requires leads_retrieval permission', {}, 403);
    return { status: 200, body: leadView(lead) };
  }
  const form = state.leadForms.get(node);
  if (form) return { status: 200, body: { id: form.id, name: form.name, status: form.status, questions: form.questions } };
  return undefined;
}

/** `GET /{page}/leadgen_forms` */
export const pageForms: GraphHandler<Slice> = (call, state, { node }) => {
  if (state.pageTokens.get(call.token) !== node) return graphError(190, '(#190) This method must be called with a Page Access Token');
  const forms = [...state.leadForms.values()].filter((form) => form.pageId === node).map((form) => ({ id: form.id, name: form.name, status: form.status }));
  return { status: 200, body: { data: forms } };
};

/** `GET /{form}/leads?filtering=[{field: time_created, operator, value}]`: newest first, one page (the sandbox's forms hold few). */
export const formLeads: GraphHandler<Slice> = (call, state, { node }) => {
  const form = state.leadForms.get(node as string);
  if (!form) return unknownObject('GET', node as string);
  if (state.pageTokens.get(call.token) !== form.pageId) return graphError(190, '(#190) This method must be called with a Page Access Token');
  if (state.leads.accessDenied.has(form.pageId)) return graphError(200, '(#200) Requires leads_retrieval permission', {}, 403);
  let filters: Array<{ field?: string; operator?: string; value?: number }> = [];
  try {
    filters = call.params.filtering ? (JSON.parse(String(call.params.filtering)) as typeof filters) : [];
  } catch {
    return graphError(100, '(#100) Param filtering must be a JSON array');
  }
  const keep = (lead: SandboxLead) =>
    filters.every(({ field, operator, value = 0 }) => {
      if (field !== 'time_created') return true;
      const seconds = Math.floor(lead.createdMs / 1000);
      return operator === 'GREATER_THAN' ? seconds > value : operator === 'LESS_THAN' ? seconds < value : seconds >= value;
    });
  const leads = [...state.leads.leads.values()].filter((lead) => lead.formId === node && keep(lead)).sort((a, b) => b.createdMs - a.createdMs);
  return { status: 200, body: { data: leads.map(leadView), paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } } };
};

/** `POST /{app-id}/subscriptions` with the app token: the callback verified (a GET with a challenge), then kept. */
export async function appSubscription(request: SandboxRequest, state: LeadsState, appId: string, appSecret: string): Promise<SandboxResponse> {
  const params = { ...Object.fromEntries(request.query), ...request.fields };
  if (String(params.access_token ?? '') !== `${appId}|${appSecret}`) return graphError(190, 'Invalid OAuth access token signature.');
  if (params.object !== 'page' || String(params.fields ?? '') !== 'leadgen') return graphError(100, '(#100) This sandbox takes object=page, fields=leadgen');
  const callbackUrl = String(params.callback_url ?? '');
  const verifyToken = String(params.verify_token ?? '');
  const challenge = String(Math.floor(1e9 + Math.random() * 1e9));
  const url = `${callbackUrl}?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.challenge': challenge, 'hub.verify_token': verifyToken })}`;
  const answer = await fetch(url)
    .then(async (response) => ({ status: response.status, text: await response.text() }))
    .catch(() => ({ status: 0, text: '' }));
  if (answer.status !== 200 || answer.text !== challenge)
    return graphError(2200, `(#2200) Callback verification failed with the following errors: HTTP Status Code = ${answer.status}`);
  state.app = { callbackUrl, verifyToken };
  return { status: 200, body: { success: true } };
}

const SAMPLE: Record<string, (n: number) => string> = {
  FULL_NAME: (n) => `Sandbox Person ${n}`,
  FIRST_NAME: () => 'Sandbox',
  LAST_NAME: (n) => `Person ${n}`,
  EMAIL: (n) => `person${n}@example.com`,
  WORK_EMAIL: (n) => `person${n}@work.example.com`,
  PHONE: (n) => `+1555000${String(n).padStart(4, '0')}`,
  CITY: () => 'Springfield',
  ZIP: () => '62701',
};

/**
 * `POST /__sandbox/leads {formId, count?, webhook?}`: `count` leads of the form (answers made up by
 * question type), then the signed webhook (one POST for them all) when the Page and the app are
 * subscribed and `webhook` is not false. Answers the leads' ids and the webhook's status.
 */
export async function makeLeads(fields: Record<string, unknown>, state: Slice, appSecret: string): Promise<SandboxResponse> {
  const form = state.leadForms.get(String(fields.formId ?? ''));
  if (!form) return { status: 404, body: { error: 'no lead form with this formId: create one with /social/create_lead_form' } };
  const count = Math.min(Math.max(Number(fields.count ?? 1), 1), 1000);
  const questions = (form.questions as Array<{ key: string; type: string; options?: Array<{ key: string }> }>) ?? [];
  const made: SandboxLead[] = [];
  for (let index = 0; index < count; index++) {
    const n = state.leads.leads.size + 1;
    const lead: SandboxLead = {
      id: String(1357924680200000 + n),
      formId: form.id as string,
      pageId: form.pageId,
      createdMs: clock.now(),
      adId: String(fields.adId ?? '120210987000300401'),
      fieldData: questions.map((question) => ({ name: question.key, values: [SAMPLE[question.type]?.(n) ?? question.options?.[0]?.key ?? `answer ${n}`] })),
    };
    state.leads.leads.set(lead.id, lead);
    made.push(lead);
  }
  const send = fields.webhook !== false && state.leads.app !== undefined && state.leads.subscribedPages.has(form.pageId);
  const status = send ? await sendWebhook(state.leads, made, appSecret) : null;
  return { status: 200, body: { leadIds: made.map((lead) => lead.id), webhook: send ? { status } : 'not sent' } };
}

async function sendWebhook(state: LeadsState, leads: SandboxLead[], appSecret: string): Promise<number> {
  const now = Math.floor(clock.now() / 1000);
  const body = JSON.stringify({
    object: 'page',
    entry: [
      {
        id: leads[0]?.pageId,
        time: now,
        changes: leads.map((lead) => ({
          value: {
            form_id: lead.formId,
            leadgen_id: lead.id,
            created_time: Math.floor(lead.createdMs / 1000),
            page_id: lead.pageId,
            ad_id: lead.adId,
            adgroup_id: lead.adId,
          },
          field: 'leadgen',
        })),
      },
    ],
  });
  const status = await fetch(state.app?.callbackUrl ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': socialSignatureOf(body, appSecret), 'user-agent': 'facebookexternalua' },
    body,
  })
    .then((response) => response.status)
    .catch(() => 0);
  state.deliveries.push({ leadIds: leads.map((lead) => lead.id), status });
  return status;
}

/** `POST /__sandbox/leads-access {pageId, allowed}`: the business's leads-access settings keep our app out of a Page's leads (or let it in). */
export function setLeadsAccess(fields: Record<string, unknown>, state: LeadsState): SandboxResponse {
  const pageId = String(fields.pageId ?? '');
  if (fields.allowed === false) state.accessDenied.add(pageId);
  else state.accessDenied.delete(pageId);
  return { status: 200, body: { pageId, allowed: fields.allowed !== false } };
}
