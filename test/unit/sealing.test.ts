import { describe, expect, it } from 'vitest';
import { addSecretConfiguration } from '../../shared/core/config.ts';
import { open, seal } from '../../shared/store/sealing.ts';

addSecretConfiguration({ CONNECTION_ENCRYPTION_KEY: 'unit-test-connection-key-0123456789abcdef' });

describe('sealing tokens at rest', () => {
  it('opens what it sealed, for the same owner only, and the sealed text shows nothing of the token', () => {
    const token = 'EAAsecretToken-ünïcode-0123456789';
    const sealed = seal(token, 'tenant/user/social');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('secretToken');
    expect(open(sealed, 'tenant/user/social')).toBe(token);
    expect(() => open(sealed, 'tenant/other-user/social')).toThrow();
  });

  it('seals the same token differently each time, and refuses a value tampered with or of another form', () => {
    const first = seal('token', 'owner');
    expect(seal('token', 'owner')).not.toBe(first);
    const [version, iv, body] = first.split('.') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => open(`${version}.${iv}.${flipped.toString('base64url')}`, 'owner')).toThrow();
    expect(() => open(`v2.${iv}.${body}`, 'owner')).toThrow('Unrecognised sealed value');
    expect(() => open('not sealed', 'owner')).toThrow('Unrecognised sealed value');
  });
});
