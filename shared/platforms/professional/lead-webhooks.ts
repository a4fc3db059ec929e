import * as z from 'zod';
import { config } from '../../core/config.ts';
import { hmacHex, type LeadNotice, type LeadWebhooks, parsedOrUndefined, sameHex } from '../lead-webhooks.ts';

/**
 * The professional network's lead notifications: `LEAD_ACTION` events (one, or an array of them),
 * signed with the client secret over `"hmacsha256=" + body` (`X-LI-Signature: <hex>`, accepted with
 * that prefix too). No timestamp is signed: a replay is a no-op by the lead's identity.
 */
const professionalNotice = z.object({
  type: z.literal('LEAD_ACTION'),
  leadGenFormResponse: z.string(),
  leadGenForm: z.string().optional(),
  owner: z.object({ sponsoredAccount: z.string().optional(), organization: z.string().optional() }),
  leadAction: z.enum(['CREATED', 'DELETED']),
});

const lastSegment = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

export function professionalNotices(raw: string): LeadNotice[] | undefined {
  const body = parsedOrUndefined(raw);
  if (body === undefined) return undefined;
  const parsed = z.array(professionalNotice).safeParse(Array.isArray(body) ? body : [body]);
  if (!parsed.success) return undefined;
  return parsed.data.flatMap((notice) => {
    const owner = notice.owner.sponsoredAccount;
    if (!owner) return [];
    const form = notice.leadGenForm ? /leadGenForm:(\d+)/.exec(notice.leadGenForm)?.[1] : undefined;
    return [
      {
        platform: 'professional' as const,
        accountId: lastSegment(owner),
        leadId: lastSegment(notice.leadGenFormResponse),
        ...(form ? { formId: form } : {}),
        action: notice.leadAction,
      },
    ];
  });
}

export function professionalSignatureValid(rawBody: Uint8Array, header: string | undefined, clientSecret: string): boolean {
  const digest = header?.trim().replace(/^hmacsha256=/, '') ?? '';
  return sameHex(digest, hmacHex(clientSecret, 'hmacsha256=', rawBody));
}

/** What the sandbox (and a test, as the platform would) puts on a body it sends. */
export const professionalSignatureOf = (rawBody: string | Uint8Array, clientSecret: string) => hmacHex(clientSecret, 'hmacsha256=', rawBody);

/** The validation GET: the challenge code and its HMAC with the client secret. */
export const professionalChallengeAnswer = (challengeCode: string, clientSecret: string) => ({
  challengeCode,
  challengeResponse: hmacHex(clientSecret, challengeCode),
});

export const professionalLeadWebhooks: LeadWebhooks = {
  signatureHeader: 'x-li-signature',
  signatureValid: (raw, header) => professionalSignatureValid(raw, header, config().PROFESSIONAL_CLIENT_SECRET ?? ''),
  notices: professionalNotices,
};
