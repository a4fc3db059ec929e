import { describe, expect, it } from 'vitest';
import { versionInUrl } from '../../shared/core/versions.ts';

describe('the API version a base URL carries', () => {
  it.each([
    ['https://graph.facebook.com/v26.0', 'v26.0'],
    ['http://127.0.0.1:4000/v25.0/', 'v25.0'],
    ['https://googleads.googleapis.com/v26', 'v26'],
    ['https://proxy.example.com/graph', 'v26.0'],
  ])('%s → %s', (url, version) => {
    expect(versionInUrl(url, 'v26.0')).toBe(version);
  });
});
