import { hash } from 'node:crypto';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Whether a value is already a lower-case SHA-256 hex digest. */
export const isSha256Hex = (value: string) => SHA256_HEX.test(value);

/** SHA-256 of the UTF-8 bytes, lower-case hex (the one-shot API: about twice as fast for short values). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
