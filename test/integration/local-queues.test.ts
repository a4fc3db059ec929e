import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalClock } from '../../local/clock.ts';
import { type LocalQueues, startLocalQueues } from '../../local/queues.ts';
import { queueDefinitions } from '../../shared/core/queues.ts';

/**
 * The local queues (local/queues.ts) keep the stack's clock, not the system's: a received message comes
 * back when the stack's clock is moved past its visibility timeout (the queue's real one), and a restart
 * on a later day finds the messages a killed run held visible again. Waits the clock skipped are no move.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-local-queues-'));
const opened: LocalQueues[] = [];
afterAll(async () => {
  for (const queues of opened) await queues.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const JOBS_VISIBILITY_MS = (queueDefinitions.find((queue) => queue.id === 'Jobs')?.visibilityTimeoutSeconds ?? 0) * 1000;
const clientOf = (queues: LocalQueues) =>
  new SQSClient({ endpoint: queues.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const receive = async (queues: LocalQueues) =>
  (await clientOf(queues).send(new ReceiveMessageCommand({ QueueUrl: queues.urls.Jobs, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];

describe('the local queues on the stack’s clock', () => {
  it('a received message is hidden for the queue’s visibility on the stack’s time, then comes back; a restart later finds it too', async () => {
    const clock = new LocalClock();
    const queues = await startLocalQueues(dataDir, clock);
    opened.push(queues);
    await clientOf(queues).send(new SendMessageCommand({ QueueUrl: queues.urls.Jobs, MessageBody: 'job-1' }));
    expect((await receive(queues)).map((message) => message.Body)).toEqual(['job-1']);
    expect(await receive(queues)).toEqual([]);
    // a wait the stack's clock skipped (a test stack's instant sleeps) is not time passing for the queues
    const skipping = new LocalClock({ instantSleeps: true });
    const before = skipping.now();
    await skipping.sleep(JOBS_VISIBILITY_MS * 2);
    expect(skipping.now() - before).toBeGreaterThanOrEqual(JOBS_VISIBILITY_MS * 2);
    expect(skipping.offset()).toBe(0);
    // a minute short of the visibility: still hidden (the margin is the real time the test itself takes,
    // which under the suite's load has passed a second)
    clock.advance(JOBS_VISIBILITY_MS - 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await receive(queues)).toEqual([]);
    clock.advance(120_000);
    await expect.poll(async () => (await receive(queues)).map((message) => message.Body)).toEqual(['job-1']);

    // received again, then the process "dies" with it in flight: a restart on the same clock still finds it hidden
    await queues.close();
    opened.pop();
    const restarted = await startLocalQueues(dataDir, new LocalClock({ offsetMs: clock.offset() }));
    opened.push(restarted);
    expect(await receive(restarted)).toEqual([]);
    await restarted.close();
    opened.pop();
    // and one that starts past the visibility sees it at once
    const later = await startLocalQueues(dataDir, new LocalClock({ offsetMs: clock.offset() + JOBS_VISIBILITY_MS + 1_000 }));
    opened.push(later);
    expect((await receive(later)).map((message) => message.Body)).toEqual(['job-1']);
    // three emulator starts, each a thread that loads fauxqs: under the suite's load (workers at nice 10
    // beside the shared stack) one start has taken 10 s
  }, 120_000);
});
