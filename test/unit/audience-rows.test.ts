import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useClock, type Clock } from '../../shared/core/clock.ts';
import { addSecretConfiguration, config } from '../../shared/core/config.ts';
import { AudienceRows, sendAudienceBatch } from '../../shared/platforms/social/custom-audiences.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';

/**
 * An audience batch is written once as JSON bytes (AudienceRows) and streamed into the request body
 * around the rest of the JSON: what the platform receives must be exactly the JSON it would have been.
 */
const rowsOf = (values: string[][]) => {
  const rows = new AudienceRows();
  for (const row of values) rows.add(row);
  return rows;
};
const parsed = (rows: AudienceRows) => JSON.parse(Buffer.from(rows.json()).toString('utf8')) as string[][];

describe('AudienceRows', () => {
  it('holds the rows as the JSON array of payload.data, any character escaped as JSON does', () => {
    const values = [
      ['a'.repeat(64), '', 'b'.repeat(64)],
      ['Zoë-✓ 𝄞', 'quote " backslash \\ tab \t', '\u0001'],
    ];
    const rows = rowsOf(values);
    expect(rows.count).toBe(2);
    expect(parsed(rows)).toEqual(values);
    expect(Buffer.from(rows.json()).toString('utf8')).toBe(JSON.stringify(values));
  });

  it('grows, doubling many times over, without losing a row, whatever a row’s UTF-8 length', () => {
    // rows of 3-byte characters, of varying lengths: some row meets each boundary part-way
    const values = Array.from({ length: 6_000 }, (_, index) => [String(index).padStart(64, '0'), '✓'.repeat(300 + (index % 7) * 97)]);
    expect(parsed(rowsOf(values))).toEqual(values);
  });

  it('starts again empty after clear, and an empty batch is []', () => {
    const rows = rowsOf([['first'], ['second']]);
    rows.clear();
    expect(rows.count).toBe(0);
    expect(parsed(rows)).toEqual([]);
    rows.add(['third']);
    expect(parsed(rows)).toEqual([['third']]);
  });
});

let upstream: Awaited<ReturnType<typeof scriptedServer>>;
let previousClock: Clock;
beforeAll(async () => {
  upstream = await scriptedServer(() => ({ status: 200, body: { num_received: 3, num_invalid_entries: 0 } }));
  // the environment was read at import: values join it this way
  addSecretConfiguration({ SOCIAL_API_URL: upstream.url, SOCIAL_APP_SECRET: 'app-secret-for-test' });
  expect(config().SOCIAL_API_URL).toBe(upstream.url);
  // waits between attempts are recorded, not slept
  previousClock = useClock({ now: () => Date.now(), random: () => 0.5, sleep: async () => {} });
});
afterEach(() => {
  upstream.received.length = 0;
});
afterAll(async () => {
  useClock(previousClock);
  await upstream.close();
});

describe('an audience batch on the wire', () => {
  const session = { accessToken: 'token-for-test', deadline: Date.now() + 60_000 };
  const upload = { session_id: 42, batch_seq: 1, last_batch_flag: true, estimated_num_total: 3 };
  const values = [
    ['e'.repeat(64), 'p'.repeat(64)],
    ['', 'f'.repeat(64)],
    ['Zoë ✓'.repeat(20_000), ''], // a body of several 64 KB pieces, of 1-, 2- and 3-byte characters
  ];

  it('is the JSON body whole, with its exact Content-Length', async () => {
    const acknowledgement = await sendAudienceBatch(session, 'append', '23850000000000001', upload, ['EMAIL', 'PHONE'], rowsOf(values));
    expect(acknowledgement).toEqual({ numReceived: 3, numInvalid: 0, samples: {} });
    const [request] = upstream.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toMatch(/\/23850000000000001\/users$/);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['transfer-encoding']).toBeUndefined();
    expect(Number(request?.headers['content-length'])).toBe(Buffer.byteLength(request?.body ?? ''));
    expect(JSON.parse(request?.body ?? '')).toEqual({
      session: upload,
      payload: { schema: ['EMAIL', 'PHONE'], is_raw: true, data: values },
      access_token: 'token-for-test',
      appsecret_proof: createHmac('sha256', 'app-secret-for-test').update('token-for-test').digest('hex'),
    });
  });

  it('is sent whole again by a retried attempt', async () => {
    upstream.answers.push({
      status: 500,
      body: { error: { message: 'An unexpected error has occurred.', type: 'OAuthException', code: 2, is_transient: true } },
    });
    await sendAudienceBatch(session, 'append', '23850000000000001', upload, ['EMAIL', 'PHONE'], rowsOf(values));
    expect(upstream.received).toHaveLength(2);
    expect(upstream.received[1]?.body).toBe(upstream.received[0]?.body);
    expect(JSON.parse(upstream.received[1]?.body ?? '').payload.data).toEqual(values);
  });
});
