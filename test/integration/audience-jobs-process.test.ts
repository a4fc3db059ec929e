import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { countedDigest, loadAudiences, memberDigest } from '../../local/sandbox/social-audiences.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderClock, startChildStack, throughEveryDelivery, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { createUpload, jobToEnd, putFile, uploaded } from '../helpers/uploads.ts';

/**
 * Audience jobs on a stack of their own: the worker killed mid-job (SIGKILL to the process) and the
 * stack started again on its data folder; the dead-letter path, with the queue's real visibility on the
 * stack's clock; a presigned URL past its 15 minutes.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-jobs-'));
const apiKey = 'audience-jobs-test-key-0123456789';
const env = { LOG_LEVEL: 'SILENT' };
/** the restart after the kill comes after the job queue's visibility, on the stack's clock */
const clock = folderClock();
const audiencesFile = join(dataDir, 'sandbox-social-audiences.json');
let stack: ChildStack | undefined;
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  stack = await startChildStack(dataDir, apiKey, env);
  await post('/tenant/update_settings', { webhook: { url: `${receiver.url}/jobs` } });
});
afterAll(async () => {
  await stack?.stop();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = () => (stack as ChildStack).url;
const sandbox = () => (stack as ChildStack).output().match(/social\s+(http:\/\/\S+)/)?.[1] as string;
async function post(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${url()}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, ...((await response.json()) as object) };
}
const fault = (body: unknown) =>
  fetch(`${sandbox()}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** What the sandbox platform holds: its journal in the data folder, read as the sandbox reads it. */
const storedAudiences = (): StoredAudience[] =>
  [...loadAudiences(audiencesFile).values()].map((audience) => ({ ...audience, digest: countedDigest(audience) })) as unknown as StoredAudience[];

interface StoredAudience {
  id: string;
  name: string;
  memberCount: number;
  digest: string;
  batches: Array<{ session: { session_id: number; batch_seq: number; last_batch_flag: boolean }; rows: number }>;
}
const storedAudience = (name: string) => storedAudiences().find((audience) => audience.name === name);

describe('an audience job survives a kill -9 of the worker', () => {
  it('resumes from its checkpoint when the stack starts again: every row once, at most one batch resent with its number', async () => {
    const rows = 50_000;
    const csv = `email\n${Array.from({ length: rows }, (_, index) => `killed.${index}@example.com`).join('\n')}\n`;
    const uploadId = await uploaded(apiKey, 'demo-user', csv, url());
    // the platform stores each batch and takes a second to answer: the kill lands after it stored batch 2, before the worker heard
    await fault({ pathIncludes: '/users', answerDelayMs: 1_000, times: 10 });
    const started = await post('/social/create_social_csv_audience', { userId: 'demo-user', audienceName: 'Kill test', uploadId });
    expect(started.results).toMatchObject({ status: 'running', jobId: expect.any(String) });
    while ((storedAudience('Kill test')?.batches.length ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await (stack as ChildStack).kill();

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, started.results.jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job).toMatchObject({
      status: 'succeeded',
      progress: { rowsRead: rows, rowsSent: rows, batchesSent: 5 },
      result: { num_received: rows, num_invalid_entries: 0 },
    });

    const audience = storedAudience('Kill test') as StoredAudience;
    expect(audience.memberCount).toBe(rows);
    expect(audience.digest).toBe(everyRowOnce(rows)); // every row, each once: none lost, none doubled
    const sequence = audience.batches.map((batch) => batch.session.batch_seq);
    expect([...new Set(sequence)]).toEqual([1, 2, 3, 4, 5]);
    expect(sequence.length - 5).toBeLessThanOrEqual(1); // at most the one unacknowledged batch, again
    console.info(`batches the platform received across the kill: ${sequence.join(', ')}`);
    expect(new Set(audience.batches.map((batch) => batch.session.session_id))).toEqual(new Set([Number(started.results.session_id)]));
    expect(audience.batches.filter((batch) => batch.session.last_batch_flag).map((batch) => batch.session.batch_seq)).toEqual([5]);
  });
});

describe('the dead-letter path', () => {
  it('a job whose runs keep failing ends failed with the last reason and a webhook once the queue gives it up', async () => {
    const form = new FormData();
    form.append('userId', 'demo-user');
    form.append('audienceName', 'Doomed');
    form.append('csvFile', new Blob(['email\nbase@example.com\n'], { type: 'text/csv' }), 'base.csv');
    const base = (await (
      await fetch(`${url()}/social/create_social_csv_audience`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form })
    ).json()) as { results: { audienceId: string } };
    const audienceId = base.results.audienceId;
    await fault({
      pathIncludes: `${audienceId}/users`,
      status: 500,
      body: { error: { message: 'An unknown error occurred', code: 1, type: 'OAuthException' } },
      times: 1_000,
    });

    const uploadId = await uploaded(apiKey, 'demo-user', 'email\ndoomed.1@example.com\ndoomed.2@example.com\n', url());
    const since = (stack as ChildStack).output().length;
    const started = await post('/social/create_social_csv_audience', { userId: 'demo-user', audienceName: 'Doomed', mode: 'append', audienceId, uploadId });
    // each run fails; the stack's clock moves past the queue's visibility after each, then the queue gives up
    await throughEveryDelivery(stack as ChildStack, 'Jobs', since);
    const { job, seen } = await jobToEnd(apiKey, started.results.jobId, { baseUrl: url() });
    expect(seen.filter((view) => view.status === 'failed')).toHaveLength(1);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'PLATFORM_UNAVAILABLE', message: expect.stringMatching(/unavailable.*given up after 5 attempts/s) },
      progress: { rowsSent: 0 },
    });
    const events = await eventually(async () => {
      const found = webhookEvents(receiver.received).filter((event) => event.data?.jobId === job.jobId);
      return found.length > 0 ? found : undefined;
    });
    expect(events).toEqual([
      {
        type: 'audience_job.failed',
        timestamp: expect.any(String),
        data: { jobId: job.jobId, userId: 'demo-user', type: 'social_audience', status: 'failed', error: job.error },
      },
    ]);
  }, 120_000); // five attempts, each retrying the platform's 5xx: longer than a test's default on a loaded machine
});

describe('a presigned URL', () => {
  it('stops taking the file 15 minutes after it was made, and the upload stays unknown', async () => {
    const body = 'email\nlate@example.com\n';
    const ticket = await createUpload(apiKey, 'demo-user', Buffer.byteLength(body), url());
    await fetch(`${sandbox()}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 15 * 60_000 + 1_000 }),
    });
    const put = await putFile(ticket, body);
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('Request has expired');
    const started = await post('/social/create_social_csv_audience', { userId: 'demo-user', audienceName: 'Late', uploadId: ticket.uploadId });
    expect(started.status).toBe(404);
    expect(started.results.code).toBe('NOT_FOUND');
  });
});

/** What the platform holds when every row arrived exactly once: each e-mail's SHA-256 as a one-key row. */
const everyRowOnce = (count: number) =>
  memberDigest(Array.from({ length: count }, (_, index) => JSON.stringify([createHash('sha256').update(`killed.${index}@example.com`).digest('hex')])));
