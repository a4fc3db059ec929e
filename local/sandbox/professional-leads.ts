import { createHmac, randomUUID } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import { professionalSignatureOf } from '../../shared/platforms/professional/lead-webhooks.ts';
import { restliError } from './professional-restli.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * The professional network's Lead Sync in the sandbox (docs/leads.md, "The sandboxes"): lead
 * notification subscriptions (the webhook validated by a challenge first, as the platform does),
 * sponsored leads read by id and by owner and time, one seeded lead form, and `POST /__sandbox/leads`,
 * which makes leads of an ad account and, unless asked not to, sends each signed `LEAD_ACTION`.
 */
export interface ProfessionalLead {
  id: string;
  accountId: string;
  submittedAt: number;
  firstName: string;
  lastName: string;
  email: string;
}

export interface ProfessionalLeadsState {
  notifications: Map<string, { webhook: string; accountId: string }>;
  leads: Map<string, ProfessionalLead>;
  /** accounts whose leads the member may not read (no company-page role): 403 */
  denied: Set<string>;
  nextNotification: number;
}

export const newProfessionalLeadsState = (): ProfessionalLeadsState => ({
  notifications: new Map(),
  leads: new Map(),
  denied: new Set(),
  nextNotification: 31_000_001,
});

const FORM_ID = '900000501';
const accountOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** The seeded form: first and last name, e-mail, and a consent. */
export const SANDBOX_LEAD_FORM = {
  id: Number(FORM_ID),
  versionId: 1,
  name: 'Winter Tune-Up 2026 – LinkedIn',
  state: 'PUBLISHED',
  content: {
    questions: [
      { questionId: 1900000501, question: { localized: { en_US: 'First name' } }, name: 'First name', predefinedField: 'FIRST_NAME' },
      { questionId: 2900000501, question: { localized: { en_US: 'Last name' } }, name: 'Last name', predefinedField: 'LAST_NAME' },
      { questionId: 3900000501, question: { localized: { en_US: 'Email address' } }, name: 'Email address', predefinedField: 'EMAIL' },
    ],
    legalInfo: { consents: [{ id: 0, consent: { localized: { en_US: 'I agree to be contacted.' } }, checkRequired: false }] },
  },
};

const leadView = (lead: ProfessionalLead) => ({
  id: lead.id,
  owner: { sponsoredAccount: `urn:li:sponsoredAccount:${lead.accountId}` },
  leadType: 'SPONSORED',
  leadMetadata: { sponsoredLeadMetadata: { campaign: 'urn:li:sponsoredCampaign:600000301' } },
  versionedLeadGenFormUrn: `urn:li:versionedLeadGenForm:(urn:li:leadGenForm:${FORM_ID},1)`,
  submittedAt: lead.submittedAt,
  testLead: false,
  associatedEntity: { associatedCreative: 'urn:li:sponsoredCreative:800000401' },
  formResponse: {
    consentResponses: [{ accepted: true, consentId: 0 }],
    answers: [
      { answerDetails: { textQuestionAnswer: { answer: lead.firstName } }, questionId: 1900000501 },
      { answerDetails: { textQuestionAnswer: { answer: lead.lastName } }, questionId: 2900000501 },
      { answerDetails: { textQuestionAnswer: { answer: lead.email } }, questionId: 3900000501 },
    ],
  },
});

/** `POST /rest/leadNotifications`: the webhook answers the validation challenge (within 3 s) before it is kept. */
export async function createLeadNotification(request: SandboxRequest, state: ProfessionalLeadsState, clientSecret: string): Promise<SandboxResponse> {
  const body = request.fields as { webhook?: string; owner?: { sponsoredAccount?: string }; leadType?: string };
  if (!body.webhook || !body.owner?.sponsoredAccount || body.leadType !== 'SPONSORED')
    return restliError(400, { code: 'INVALID_INPUT', message: 'webhook, owner.sponsoredAccount and leadType SPONSORED are required in this sandbox' });
  const code = randomUUID();
  const answer = await fetch(`${body.webhook}?challengeCode=${code}`, { signal: AbortSignal.timeout(3_000) })
    .then((response) => response.json() as Promise<{ challengeResponse?: string }>)
    .catch(() => undefined);
  if (answer?.challengeResponse !== createHmac('sha256', clientSecret).update(code).digest('hex'))
    return restliError(400, { code: 'INVALID_WEBHOOK', message: 'This URL did not pass the security challenge check' });
  const id = String(state.nextNotification++);
  state.notifications.set(id, { webhook: body.webhook, accountId: accountOf(body.owner.sponsoredAccount) });
  return { status: 201, body: {}, headers: { 'x-restli-id': id } };
}

export function listLeadNotifications(request: SandboxRequest, state: ProfessionalLeadsState): SandboxResponse {
  const owner = decodeURIComponent(/sponsoredAccount:([^)]+)\)/.exec(request.rawQuery)?.[1] ?? '');
  const elements = [...state.notifications]
    .filter(([, notification]) => notification.accountId === accountOf(owner))
    .map(([id, notification]) => ({ id: Number(id), owner: { sponsoredAccount: owner }, webhook: notification.webhook, leadType: 'SPONSORED' }));
  return { status: 200, body: { elements } };
}

export function deleteLeadNotification(id: string, state: ProfessionalLeadsState): SandboxResponse {
  return state.notifications.delete(id) ? { status: 204 } : restliError(404, { code: 'NOT_FOUND', message: `No lead notification ${id}` });
}

export function getLead(id: string, state: ProfessionalLeadsState): SandboxResponse {
  const lead = state.leads.get(decodeURIComponent(id));
  if (!lead) return restliError(404, { serviceErrorCode: 100, code: 'NOT_FOUND', message: `leadFormResponse ${id} does not exist` });
  if (state.denied.has(lead.accountId))
    return restliError(403, { serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: leadFormResponses' });
  return { status: 200, body: leadView(lead) };
}

export function getLeadForm(id: string): SandboxResponse {
  return id === FORM_ID ? { status: 200, body: SANDBOX_LEAD_FORM } : restliError(404, { code: 'NOT_FOUND', message: `leadForm ${id} does not exist` });
}

/** `GET /rest/leadFormResponses?q=owner&owner=(sponsoredAccount:…)&leadType=(leadType:SPONSORED)&submittedAtTimeRange=(start:…,end:…)` */
export function findLeads(request: SandboxRequest, state: ProfessionalLeadsState): SandboxResponse {
  if (request.query.get('q') !== 'owner' || !/leadType=\(leadType:SPONSORED\)/.test(request.rawQuery))
    return restliError(400, { code: 'QUERY_PARAM_NOT_ALLOWED', message: 'q=owner with leadType=(leadType:SPONSORED) is required' });
  const account = accountOf(decodeURIComponent(/owner=\(sponsoredAccount:([^)]+)\)/.exec(request.rawQuery)?.[1] ?? ''));
  if (state.denied.has(account))
    return restliError(403, { serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: leadFormResponses' });
  const [, start = '0', end = String(Number.MAX_SAFE_INTEGER)] = /submittedAtTimeRange=\(start:(\d+),end:(\d+)\)/.exec(request.rawQuery) ?? [];
  const all = [...state.leads.values()].filter((lead) => lead.accountId === account && lead.submittedAt >= Number(start) && lead.submittedAt <= Number(end));
  const from = Number(request.query.get('start') ?? 0);
  const count = Number(request.query.get('count') ?? 10);
  return { status: 200, body: { paging: { start: from, count, links: [], total: all.length }, elements: all.slice(from, from + count).map(leadView) } };
}

/** `POST /__sandbox/leads {accountId, count?, webhook?}`: leads of the account, each notified (signed) to the webhooks subscribed to it. */
export async function makeProfessionalLeads(fields: Record<string, unknown>, state: ProfessionalLeadsState, clientSecret: string): Promise<SandboxResponse> {
  const accountId = String(fields.accountId ?? '');
  if (!/^\d+$/.test(accountId)) return { status: 400, body: { error: 'accountId (the sponsored ad account) is required' } };
  const count = Math.min(Math.max(Number(fields.count ?? 1), 1), 1000);
  const made: ProfessionalLead[] = [];
  for (let index = 0; index < count; index++) {
    const n = state.leads.size + 1;
    const lead = {
      id: `${randomUUID()}-${n}`,
      accountId,
      submittedAt: clock.now(),
      firstName: 'Sandbox',
      lastName: `Member ${n}`,
      email: `member${n}@example.com`,
    };
    state.leads.set(lead.id, lead);
    made.push(lead);
  }
  const statuses: number[] = [];
  if (fields.webhook !== false) {
    for (const lead of made) {
      for (const { webhook } of [...state.notifications.values()].filter((notification) => notification.accountId === accountId)) {
        const body = JSON.stringify({
          type: 'LEAD_ACTION',
          leadGenFormResponse: `urn:li:leadGenFormResponse:${lead.id}`,
          leadGenForm: `urn:li:versionedLeadGenForm:(urn:li:leadGenForm:${FORM_ID},1)`,
          owner: { sponsoredAccount: `urn:li:sponsoredAccount:${accountId}` },
          associatedEntity: { sponsoredCreative: 'urn:li:sponsoredCreative:800000401' },
          leadType: 'SPONSORED',
          leadAction: 'CREATED',
          occurredAt: lead.submittedAt,
        });
        statuses.push(
          await fetch(webhook, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-li-signature': professionalSignatureOf(body, clientSecret) },
            body,
          })
            .then((response) => response.status)
            .catch(() => 0),
        );
      }
    }
  }
  return { status: 200, body: { leadIds: made.map((lead) => lead.id), webhook: fields.webhook === false ? 'not sent' : { statuses } } };
}
