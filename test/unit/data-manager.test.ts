import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EuDeclarationRequired,
  PlatformAuthExpired,
  PlatformRateLimited,
  PlatformRejected,
  PlatformUnavailable,
  ScopeMissing,
} from '../../shared/core/errors.ts';
import { classifyDataManagerResponse, quotaWaitSeconds } from '../../shared/platforms/searchads/data-manager.ts';

/** The Data Manager API's answers in the service's words, from the contract's recorded exchanges. */
const exchange = (name: string) => {
  const { response } = JSON.parse(readFileSync(new URL(`../fixtures/datamanager/${name}`, import.meta.url), 'utf8'));
  return { status: response.status as number, text: JSON.stringify(response.body) };
};
/** The verdict, its error (if any) as any refusal of ours */
const verdictOf = (name: string, retrySafe = true) => {
  const { status, text } = exchange(name);
  return classifyDataManagerResponse(status, text, retrySafe) as { outcome: string; value?: unknown; error?: any };
};

describe('Data Manager answers', () => {
  it('an accepted request is its id', () => {
    expect(verdictOf('ingest-contacts-hex.json')).toEqual({ outcome: 'ok', value: { requestId: '8f3c2a1e-5b7d-4c9a-9e61-0f1a2b3c4d5e' } });
  });

  it('a spent quota parks the job: a minute for the per-minute one, to Google’s next day for the daily one', () => {
    const verdict = verdictOf('error-429-quota.json');
    expect(verdict.outcome).toBe('fail');
    expect(verdict.error).toBeInstanceOf(PlatformRateLimited);
    expect(verdict.error.retryAfterSeconds).toBe(60);
    const daily = { error: { details: [{ metadata: { quota_limit: 'IngestionWriteRequestsPerDayPerProject' } }] } };
    // 23:00 in Los Angeles (07:00 UTC in winter): an hour to its midnight, and a minute more
    expect(quotaWaitSeconds(daily, Date.parse('2025-01-15T07:00:00Z'))).toBe(3_660);
  });

  it('the scope, the token, the terms, the declaration and a missing list each say what they are', () => {
    expect(verdictOf('error-403-scope-insufficient.json').error).toBeInstanceOf(ScopeMissing);
    expect(verdictOf('error-401-token-expired.json')).toMatchObject({ outcome: 'refreshAuth', error: expect.any(PlatformAuthExpired) });
    const terms = verdictOf('error-400-terms-not-accepted.json').error;
    expect(terms.extra.platformCode).toBe('TERMS_AND_CONDITIONS_NOT_SIGNED');
    expect(verdictOf('error-400-eu-political-declaration.json').error.extra.platformCode).toBe('EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED');
    expect(verdictOf('error-400-invalid-user-list-id.json').error.extra.platformCode).toBe('INVALID_USER_LIST_ID');
    expect(verdictOf('error-400-invalid-hex.json').error.message).toContain('INVALID_HEX_ENCODING');
    expect(verdictOf('error-403-permission-denied.json').error).toBeInstanceOf(PlatformRejected);
    expect(EuDeclarationRequired).toBeDefined();
  });

  it('an outage is retried when the call is safe to send again, else handed back', () => {
    expect(classifyDataManagerResponse(503, '{"error":{"code":503,"status":"UNAVAILABLE"}}', true)).toMatchObject({
      outcome: 'retry',
      error: expect.any(PlatformUnavailable),
    });
    expect(classifyDataManagerResponse(503, '{"error":{"code":503,"status":"UNAVAILABLE"}}', false)).toMatchObject({
      outcome: 'fail',
      error: expect.any(PlatformUnavailable),
    });
  });
});
