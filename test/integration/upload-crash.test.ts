import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { countedDigest, loadAudiences, memberDigest } from '../../local/sandbox/social-audiences.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildStack, type ChildStack } from '../helpers/child-stack.ts';

/**
 * A real crash mid-upload: the local stack's process is killed with SIGKILL while an audience upload
 * is between batches, started again on the same data folder, and the client retries with the same
 * Idempotency-Key. Every row reaches the platform, at most one batch twice (with its own number), and
 * the counts are of distinct rows.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-crash-'));
const apiKey = 'upload-crash-test-key-0123456789';
const ROWS = 50_000;
const env = { JOB_LEASE_MS: '1000', LOG_LEVEL: 'SILENT' };
const audiencesFile = join(dataDir, 'sandbox-social-audiences.json');
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const csv = `email\n${Array.from({ length: ROWS }, (_, index) => `crash.${index}@example.com`).join('\n')}\n`;

function upload(url: string): Promise<Response> {
  const form = new FormData();
  form.append('userId', 'demo-user');
  form.append('audienceName', 'Crash test');
  form.append('csvFile', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  return fetch(`${url}/social/create_social_csv_audience`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'idempotency-key': 'crash-upload-1' },
    body: form,
  });
}

const sandboxUrl = (output: string) => output.match(/social\s+(http:\/\/\S+)/)?.[1] as string;

/** What the sandbox platform holds: its journal in the data folder, read as the sandbox reads it. */
const storedAudiences = (): StoredAudience[] =>
  [...loadAudiences(audiencesFile).values()].map((audience) => ({ ...audience, digest: countedDigest(audience) })) as unknown as StoredAudience[];

interface StoredAudience {
  name: string;
  memberCount: number;
  digest: string;
  batches: Array<{ session: { session_id: number; batch_seq: number; last_batch_flag: boolean }; rows: number }>;
}

describe('an upload survives a kill -9 of the service', () => {
  it('resumes from its checkpoint: every row once, at most one batch resent with its number, distinct counts', async () => {
    stack = await startChildStack(dataDir, apiKey, env);
    const sandbox = sandboxUrl(stack.output());
    // the platform stores each batch and then takes a while to answer: the kill lands after it
    // stored batch 2 and before the service heard so, the worst moment for counting
    await fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathIncludes: '/users', answerDelayMs: 1_000, times: 10 }),
    });
    const first = upload(stack.url).then(
      (response) => response.status,
      () => 'connection lost',
    );
    const stored = () => storedAudiences();
    while ((stored()[0]?.batches.length ?? 0) < 2) await new Promise((resolve) => setImmediate(resolve));
    await stack.kill();
    expect(await first).toBe('connection lost');

    stack = await startChildStack(dataDir, apiKey, env);
    // the killed run's lease on the upload runs out, on the stack's clock, before the client retries
    // (a retry within it is a 409 that says to retry in a few seconds)
    await fetch(`${sandboxUrl(stack.output())}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: Number(env.JOB_LEASE_MS) + 1 }),
    });
    const retried = await upload(stack.url);
    const body = (await retried.json()) as { results: Record<string, unknown> };
    expect(retried.status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ success: true, num_received: ROWS, num_invalid_entries: 0 });

    await stack.stop();
    stack = undefined;
    const audiences = storedAudiences();
    const audience = audiences.find((item) => item.name === 'Crash test') as StoredAudience;
    expect(audiences.filter((item) => item.name === 'Crash test')).toHaveLength(1);
    expect(audience.memberCount).toBe(ROWS);
    expect(audience.digest).toBe(everyRowOnce(ROWS)); // every row, each once: none lost, none doubled
    const sequences = audience.batches.map((batch) => batch.session.batch_seq);
    expect(new Set(audience.batches.map((batch) => batch.session.session_id)).size).toBe(1);
    expect([...new Set(sequences)]).toEqual([1, 2, 3, 4, 5]);
    expect(sequences).toEqual([1, 2, 2, 3, 4, 5]); // batch 2 again, with its number, in the same session
    // the platform counted 60,000; the answer above said 50,000
    // the staged contacts are gone once the upload is done
    const staged = join(dataDir, 's3');
    const files = existsSync(staged)
      ? readdirSync(staged, { recursive: true })
          .map(String)
          .filter((name) => name.includes('contacts') || name.endsWith('._S3rver_object'))
      : [];
    expect(files).toEqual([]);
  }, 120_000);
});

/** What the platform holds when every row arrived exactly once: each e-mail's SHA-256 as a one-key row. */
const everyRowOnce = (count: number) =>
  memberDigest(Array.from({ length: count }, (_, index) => JSON.stringify([createHash('sha256').update(`crash.${index}@example.com`).digest('hex')])));
