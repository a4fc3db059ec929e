import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { config } from '../core/config.ts';

/**
 * AES-256-GCM for platform tokens at rest. The associated data binds a sealed value to its owner
 * (tenant, user, field), so a value copied into another record does not open.
 */
const VERSION = 'v1';

/** The AES key: SHA-256 of the configured secret (at least 32 characters of randomness). */
function key(): Buffer {
  const secret = config().CONNECTION_ENCRYPTION_KEY;
  if (!secret || secret.length < 32) throw new Error('CONNECTION_ENCRYPTION_KEY must be set to a random secret of at least 32 characters');
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function seal(plaintext: string, owner: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export function open(sealed: string, owner: string): string {
  const [version, ivText, bodyText] = sealed.split('.');
  if (version !== VERSION || !ivText || !bodyText) throw new Error('Unrecognised sealed value');
  const body = Buffer.from(bodyText, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(ivText, 'base64url'));
  decipher.setAAD(Buffer.from(owner, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
}
