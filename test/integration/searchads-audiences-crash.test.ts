import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderClock, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * A Customer Match job killed with SIGKILL between two accepted requests: Google (the sandbox) took
 * the second request of three and the service never heard so. After a restart on the same data folder
 * the job goes on from its checkpoint: the first request is not sent again, the second (the one not
 * acknowledged) is, once, and the third follows; every row is in the list, none lost.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-dm-crash-'));
const apiKey = 'datamanager-crash-test-key-0123456789';
const ROWS = 25_000;
const env = { LOG_LEVEL: 'SILENT' };
/** the restart comes after the job queue's visibility (and the dead run's lease), on the stack's clock */
const clock = folderClock();
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const sha = (value: string) => createHash('sha256').update(value).digest('hex');
const csv = `email\n${Array.from({ length: ROWS }, (_, index) => `dm.crash.${index}@example.com`).join('\n')}\n`;
const sandboxOf = (child: ChildStack) => /^\s+searchads\s+(http:\/\/\S+)$/m.exec(child.output())?.[1] as string;

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { results: Record<string, any> }).results;
}

/** The ingest requests a sandbox process recorded, by the first member each carried. */
const ingests = async (sandbox: string) =>
  ((await (await fetch(`${sandbox}/__sandbox/requests`)).json()) as Array<{ path: string; body: string }>)
    .filter((request) => request.path === '/v1/audienceMembers:ingest')
    .map((request) => JSON.parse(request.body).audienceMembers[0].userData.userIdentifiers[0].emailAddress as string);

describe('a Customer Match job survives a kill -9 between two accepted requests', () => {
  it('sends again only the request it had not heard back from; every row reaches the list', async () => {
    stack = await startChildStack(dataDir, apiKey, env);
    const sandbox = sandboxOf(stack);
    // the platform takes the second request and holds its answer back: the kill lands in between
    await fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: sha('dm.crash.10000@example.com'), answerDelayMs: 60_000 }),
    });
    const form = new FormData();
    form.append('userId', 'demo-user');
    form.append('audienceName', 'Crash list');
    form.append('consent', JSON.stringify({ adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' }));
    form.append('csvFile', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
    const started = (await (
      await fetch(`${stack.url}/searchads/create_csv_audience`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form })
    ).json()) as {
      results: { jobId: string; audienceId: string };
    };
    const { jobId } = started.results;
    await eventually(async () => ((await ingests(sandbox)).length === 2 ? true : undefined), 30_000, 'the second request to reach the platform');
    await stack.kill();

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const restarted = sandboxOf(stack);
    const job = await eventually(
      async () => {
        const { job: view } = await post(stack?.url as string, '/jobs/get_job', { jobId });
        return view.status === 'succeeded' || view.status === 'failed' ? view : undefined;
      },
      60_000,
      'the job to end after the restart',
    );
    expect(job).toMatchObject({ status: 'succeeded', result: { received: ROWS, invalid: 0 } });
    // before the kill: requests 1 and 2; after it: 2 again (never acknowledged) and 3; never 1 again
    expect(await ingests(restarted)).toEqual([sha('dm.crash.10000@example.com'), sha('dm.crash.20000@example.com')]);
    const { lists } = (await (
      await fetch(`${restarted}/__sandbox/datamanager`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as {
      lists: Array<{ id: string; members: number }>;
    };
    expect(lists.find((list) => list.id === job.result.userListId)?.members).toBe(ROWS);
  }, 120_000);
});
