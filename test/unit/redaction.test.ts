import { describe, expect, it } from 'vitest';
import { PlatformRejected } from '../../shared/core/errors.ts';
import { REDACTED, redactCredentials, redactDeep } from '../../shared/core/redaction.ts';
import { redactSecrets } from '../../shared/platforms/upstream.ts';

/** No credential in what a platform wrote passes on (docs/decisions.md, "Platform refusals carry no secret"). */
describe('redaction', () => {
  it('replaces the value after each named credential, a bearer token and the given secrets', () => {
    const text =
      'bad request: access_token=EAAabc123&x=1 refresh_token=AQXrefresh.99 client_secret=s3cr3t-value code=4/0AbCd Authorization: Bearer ya29.token-here {"access_token":"EAAjson"} and EAAheldtoken1234 again';
    const redacted = redactCredentials(text, ['EAAheldtoken1234']);
    for (const secret of ['EAAabc123', 'AQXrefresh.99', 's3cr3t-value', '4/0AbCd', 'ya29.token-here', 'EAAjson', 'EAAheldtoken1234'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toBe(
      `bad request: access_token=${REDACTED}&x=1 refresh_token=${REDACTED} client_secret=${REDACTED} code=${REDACTED} Authorization: Bearer ${REDACTED} {"access_token":"${REDACTED}"} and ${REDACTED} again`,
    );
  });

  it('changes nothing the second time', () => {
    const once = redactCredentials('client_secret=abc Bearer tok {"refresh_token":"r"} access_token=t&x');
    expect(redactCredentials(once)).toBe(once);
  });

  it('leaves ordinary words alone: error_code=, a code in prose, short strings', () => {
    expect(redactCredentials('error_code=190; the code is 100; token ok', ['ok'])).toBe('error_code=190; the code is 100; token ok');
  });

  it('walks objects and arrays: a refusal’s title and user message as well as its message', () => {
    const value = { userTitle: 'Invalid token EAAheldtoken1234', nested: [{ userMessage: 'see access_token=EAAx' }], count: 3 };
    expect(redactDeep(value, ['EAAheldtoken1234'])).toEqual({
      userTitle: `Invalid token ${REDACTED}`,
      nested: [{ userMessage: `see access_token=${REDACTED}` }],
      count: 3,
    });
  });

  it('a platform refusal loses the session’s token from its message, its cause and its extras', () => {
    const error = new PlatformRejected(
      'social',
      'Invalid OAuth token EAAsession5678',
      { platformDetail: { userMessage: 'EAAsession5678' } },
      {
        userTitle: 'token EAAsession5678',
        userMessage: 'retry with access_token=EAAother',
      },
    );
    redactSecrets(error, ['EAAsession5678']);
    expect(error.message).toBe(`Invalid OAuth token ${REDACTED}`);
    expect(error.cause).toEqual({ userTitle: `token ${REDACTED}`, userMessage: `retry with access_token=${REDACTED}` });
    expect(error.extra.platformDetail).toEqual({ userMessage: REDACTED });
  });
});
