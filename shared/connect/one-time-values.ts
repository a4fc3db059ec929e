import { createHash, randomBytes } from 'node:crypto';

/**
 * The random values of a connect round trip (docs/platforms.md "What every connect round trip shares", R5): unguessable,
 * stored only as hashes where a stolen table row must not let anyone use them.
 */

/** `bytes` random bytes from the CSPRNG, base64url (16 bytes = 128 bits). */
export const randomValue = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** How a one-time value is kept in the store: its SHA-256, never the value. */
export const hashOf = (value: string): string => createHash('sha256').update(value, 'utf8').digest('base64url');

/** A connect link's name in the audit log (its creation's target, the actor of what it connects): never its id, which opens it. */
export const linkDigest = (linkId: string): string => `lnk_${hashOf(linkId).slice(0, 16)}`;

/** A PKCE verifier: 43 characters of the unreserved set (RFC 7636 §4.1). */
export const newCodeVerifier = (): string => randomValue(32);

/** The S256 challenge of a verifier (RFC 7636 §4.2): BASE64URL(SHA256(ASCII(verifier))), no padding. */
export const codeChallengeOf = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');
