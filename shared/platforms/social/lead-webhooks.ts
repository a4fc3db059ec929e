import { createHash, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { config } from '../../core/config.ts';
import { hmacHex, type LeadNotice, type LeadWebhooks, parsedOrUndefined, sameHex } from '../lead-webhooks.ts';

/**
 * The social platform's lead webhooks: a Page's `leadgen` changes, signed with the app secret
 * (`X-Hub-Signature-256: sha256=<hex>` over the body). No timestamp is signed, so a replay verifies
 * forever: the lead's identity makes it a no-op.
 */
const id = z.union([z.string().min(1), z.number()]).transform(String);

const socialBody = z.object({
  object: z.literal('page'),
  entry: z.array(
    z.object({
      id,
      changes: z.array(
        z.object({
          field: z.string(),
          value: z
            .object({ leadgen_id: id, page_id: id.optional(), form_id: id.optional(), ad_id: id.optional(), created_time: z.number().optional() })
            .partial({ leadgen_id: true }),
        }),
      ),
    }),
  ),
});

export function socialNotices(raw: string): LeadNotice[] | undefined {
  const parsed = socialBody.safeParse(parsedOrUndefined(raw));
  if (!parsed.success) return undefined;
  return parsed.data.entry.flatMap((entry) =>
    entry.changes
      .filter((change) => change.field === 'leadgen' && change.value.leadgen_id)
      .map((change) => ({
        platform: 'social' as const,
        pageId: change.value.page_id ?? entry.id,
        leadId: change.value.leadgen_id as string,
        ...(change.value.form_id ? { formId: change.value.form_id } : {}),
        ...(change.value.ad_id ? { adId: change.value.ad_id } : {}),
        ...(change.value.created_time ? { createdAt: new Date(change.value.created_time * 1000).toISOString() } : {}),
      })),
  );
}

export function socialSignatureValid(rawBody: Uint8Array, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  return match?.[1] !== undefined && sameHex(match[1], hmacHex(appSecret, rawBody));
}

/** What the sandbox (and a test, as the platform would) puts on a body it sends. */
export const socialSignatureOf = (rawBody: string | Uint8Array, appSecret: string) => `sha256=${hmacHex(appSecret, rawBody)}`;

/** The verification GET: the challenge echoed when the verify token is ours. */
export function socialChallengeAnswer(query: Record<string, string | undefined>, verifyToken: string): string | undefined {
  const given = query['hub.verify_token'] ?? '';
  if (query['hub.mode'] !== 'subscribe' || !query['hub.challenge']) return undefined;
  // digests of equal length whatever the tokens' lengths or encodings (a multi-byte character counts as several bytes)
  const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();
  const same = timingSafeEqual(digest(given), digest(verifyToken));
  return same ? query['hub.challenge'] : undefined;
}

export const socialLeadWebhooks: LeadWebhooks = {
  signatureHeader: 'x-hub-signature-256',
  signatureValid: (raw, header) => socialSignatureValid(raw, header, config().SOCIAL_APP_SECRET ?? ''),
  notices: socialNotices,
};
