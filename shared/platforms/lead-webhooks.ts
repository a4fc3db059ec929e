import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a platform's lead webhooks are to us (docs/leads.md, "Platform webhooks"): a signature over the
 * raw bytes, checked before anything else, and a body naming which leads to read. Each platform that
 * sends leads says how in its own folder (`<platform>/lead-webhooks.ts`); the signatures are written by
 * hand because no library speaks these schemes (standardwebhooks is ours, for what we send).
 */
export interface LeadWebhooks {
  /** the header the signature comes in (lower case, as the gateway hands headers) */
  signatureHeader: string;
  /** the signature holds over exactly these bytes, with the secret the platform signs with */
  signatureValid(rawBody: Uint8Array, header: string | undefined): boolean;
  /** the leads a verified body names; undefined when it fits no shape of the platform's (kept and reported, never guessed at) */
  notices(raw: string): LeadNotice[] | undefined;
}

/**
 * What a verified body says: which leads to read. Neither platform sends a lead's answers, only its
 * ids; ids may come as JSON numbers and are read as text (no precision lost above 2^53).
 */
export type LeadNotice =
  | { platform: 'social'; pageId: string; leadId: string; formId?: string; adId?: string; createdAt?: string }
  | { platform: 'professional'; accountId: string; leadId: string; formId?: string; action: 'CREATED' | 'DELETED' };

/** Ids in a body whose big numbers JSON.parse would round: every integer above 2^53 is read as text. */
export function parseWithExactIds(raw: string): unknown {
  return JSON.parse(raw.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

/** The body as JSON, or undefined when it is not JSON at all (kept and reported like any body of no known shape). */
export function parsedOrUndefined(raw: string): unknown {
  try {
    return parseWithExactIds(raw);
  } catch {
    return undefined;
  }
}

export const hmacHex = (secret: string, ...parts: Array<string | Uint8Array>) => {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
};

/** Equal hex digests, in constant time; anything that is not a digest of the same length is unequal. */
export function sameHex(given: string, expected: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'hex'), Buffer.from(expected, 'hex'));
}
