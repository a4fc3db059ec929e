import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { attemptVerdict, signedHeaders } from '../../shared/webhooks/attempt.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('a delivery attempt’s signature', () => {
  it('verifies with the tenant’s secret, names the event and this attempt’s time, and fails with any other secret or body', () => {
    const at = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    const body = JSON.stringify({ type: 'webhook.test', timestamp: at.toISOString(), data: { message: 'é ☃' } });
    const headers = signedHeaders(SECRET, 'msg_1', at, body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verifier = new Webhook(SECRET);
    // the receiver's clock: the library checks the timestamp against now, so verify at the attempt's time
    const realNow = Date.now;
    Date.now = () => at.getTime();
    try {
      expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => verifier.verify(`${body} `, headers)).toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(body, headers)).toThrow();
    } finally {
      Date.now = realNow;
    }
  });

  it('is made anew for each attempt: another time, another signature, the same id', () => {
    const body = '{"type":"webhook.test","timestamp":"t","data":{}}';
    const first = signedHeaders(SECRET, 'msg_2', new Date(1_000_000), body);
    const second = signedHeaders(SECRET, 'msg_2', new Date(1_005_000), body);
    expect(second['webhook-id']).toBe(first['webhook-id']);
    expect(second['webhook-signature']).not.toBe(first['webhook-signature']);
  });
});

describe('what an attempt’s answer makes of the event', () => {
  const delays = [5, 300, 1800];

  it('2xx is delivered; 410 fails and disables; anything else or no answer waits the next delay, then fails', () => {
    expect(attemptVerdict(200, 1, delays)).toEqual({ status: 'delivered', gone: false });
    expect(attemptVerdict(204, 3, delays)).toEqual({ status: 'delivered', gone: false });
    expect(attemptVerdict(410, 1, delays)).toEqual({ status: 'failed', gone: true });
    expect(attemptVerdict(500, 1, delays)).toEqual({ status: 'pending', retryAfterSeconds: 5, gone: false });
    expect(attemptVerdict(null, 2, delays)).toEqual({ status: 'pending', retryAfterSeconds: 300, gone: false });
    expect(attemptVerdict(301, 3, delays)).toEqual({ status: 'pending', retryAfterSeconds: 1800, gone: false });
    expect(attemptVerdict(429, 4, delays)).toEqual({ status: 'failed', gone: false });
  });

  it('never delivers a non-2xx, and always ends within the schedule plus one attempt', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 100, max: 599 }), { nil: null }),
        fc.array(fc.integer({ min: 1, max: 36_000 }), { maxLength: 8 }),
        (status, schedule) => {
          let attempt = 1;
          let verdict = attemptVerdict(status, attempt, schedule);
          while (verdict.status === 'pending') verdict = attemptVerdict(status, ++attempt, schedule);
          const ok = status !== null && status >= 200 && status < 300;
          expect(verdict.status).toBe(ok ? 'delivered' : 'failed');
          expect(attempt).toBeLessThanOrEqual(ok || status === 410 ? 1 : schedule.length + 1);
        },
      ),
    );
  });
});
