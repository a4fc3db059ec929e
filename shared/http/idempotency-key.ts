import { InvalidRequest } from '../core/errors.ts';

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new InvalidRequest('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', [
      { path: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return key;
}
