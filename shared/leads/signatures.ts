import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The platforms' webhook signatures, checked over the raw bytes before anything else
 * (docs/leads.md, "Platform webhooks"). Written here because no library speaks these two schemes
 * (standardwebhooks is ours, for what we send): the social platform signs the body with its app secret
 * (`X-Hub-Signature-256: sha256=<hex>`); the professional network signs `"hmacsha256=" + body` with the
 * client secret (`X-LI-Signature: <hex>`, accepted with that prefix too). Neither covers a timestamp,
 * so a replay verifies forever: the lead's identity makes it a no-op.
 */
const hmacHex = (secret: string, ...parts: Array<string | Uint8Array>) => {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
};

/** Equal hex digests, in constant time; anything that is not a digest of the same length is unequal. */
function sameHex(given: string, expected: string): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'hex'), Buffer.from(expected, 'hex'));
}

export function socialSignatureValid(rawBody: Uint8Array, header: string | undefined, appSecret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  return match?.[1] !== undefined && sameHex(match[1], hmacHex(appSecret, rawBody));
}

export function professionalSignatureValid(rawBody: Uint8Array, header: string | undefined, clientSecret: string): boolean {
  const digest = header?.trim().replace(/^hmacsha256=/, '') ?? '';
  return sameHex(digest, hmacHex(clientSecret, 'hmacsha256=', rawBody));
}

/** The social platform's verification GET: the challenge echoed when the verify token is ours. */
export function socialChallengeAnswer(query: Record<string, string | undefined>, verifyToken: string): string | undefined {
  const given = query['hub.verify_token'] ?? '';
  if (query['hub.mode'] !== 'subscribe' || !query['hub.challenge']) return undefined;
  // digests of equal length whatever the tokens' lengths or encodings (a multi-byte character counts as several bytes)
  const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();
  const same = timingSafeEqual(digest(given), digest(verifyToken));
  return same ? query['hub.challenge'] : undefined;
}

/** The professional network's validation GET: the challenge code and its HMAC with the client secret. */
export const professionalChallengeAnswer = (challengeCode: string, clientSecret: string) => ({
  challengeCode,
  challengeResponse: hmacHex(clientSecret, challengeCode),
});

/** What the sandboxes (and the tests, as a platform would) put on a body they send. */
export const socialSignatureOf = (rawBody: string | Uint8Array, appSecret: string) => `sha256=${hmacHex(appSecret, rawBody)}`;
export const professionalSignatureOf = (rawBody: string | Uint8Array, clientSecret: string) => hmacHex(clientSecret, 'hmacsha256=', rawBody);
