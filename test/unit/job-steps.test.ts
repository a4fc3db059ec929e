import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { PlatformRejected, PlatformTimeout } from '../../shared/core/errors.ts';
import type { Job } from '../../shared/store/jobs.ts';
import { JOB_KINDS } from '../../functions/use-cases/jobs/job-kinds.ts';
import { JOB_PROGRESS } from '../../functions/use-cases/jobs/job-views.ts';
import { JobRun, Pause } from '../../functions/use-cases/jobs/job-run.ts';
import { type CreateStore, createOnce, pollEachUntil, pollUntil, sendInOrder } from '../../functions/use-cases/jobs/steps.ts';
import { lambdaContext, memoryStepStore } from '../helpers/fakes.ts';

/** The job engine's three step shapes and its kinds' reading of stored jobs, on fakes: no store, no platform. */
function aJob(type: Job['type'], request: unknown, checkpoint: unknown): Job {
  const now = new Date().toISOString();
  return {
    jobId: 'job_1',
    tenantId: 't',
    userId: 'u',
    type,
    status: 'running',
    progress: { bytesRead: 0, totalBytes: 0, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    request,
    checkpoint,
  };
}

function aRun(job = aJob('ad_media', {}, {})) {
  const saves: Job[] = [];
  const run = new JobRun(job, 'owner', lambdaContext(600_000), 'social', {
    save: async (saved) => {
      saves.push(structuredClone(saved));
      return 'saved';
    },
  });
  return { run, saves };
}

/** The create steps in a Map (the fakes' step store), with the refusal's forgetting. */
function memoryCreates() {
  const memory = memoryStepStore<{ sentAt: number }, string>();
  const store: CreateStore<string> = { ...memory, forget: async (key) => void memory.records.delete(key) };
  return { records: memory.records, store };
}

describe('create once', () => {
  it('a lost answer is read back and the object adopted; a second call answers the same id without a send', async () => {
    const { store } = memoryCreates();
    let sends = 0;
    const made: string[] = [];
    const step = {
      store,
      key: 'segment',
      send: async () => {
        sends++;
        made.push('seg-1');
        throw new PlatformTimeout('professional');
      },
      readBack: async () => made[0],
    };
    expect(await createOnce(step)).toBe('seg-1');
    expect(await createOnce(step)).toBe('seg-1');
    expect(sends).toBe(1);
  });

  it('a run that finds the intent stored (a crash) reads back before it sends', async () => {
    const { store, records } = memoryCreates();
    records.set('segment', { status: 'in_progress', intent: { sentAt: 1 } });
    let sends = 0;
    const id = await createOnce({
      store,
      key: 'segment',
      send: async () => `new-${++sends}`,
      readBack: async (since) => (since === 1 ? 'seg-made' : undefined),
    });
    expect(id).toBe('seg-made');
    expect(sends).toBe(0);
  });

  it('a refusal forgets the intent: nothing was made, and the next try is a first send', async () => {
    const { store, records } = memoryCreates();
    const refused = createOnce({
      store,
      key: 'segment',
      send: async () => {
        throw new PlatformRejected('professional', 'no');
      },
      readBack: async () => undefined,
    });
    await expect(refused).rejects.toBeInstanceOf(PlatformRejected);
    expect(records.has('segment')).toBe(false);
  });
});

describe('poll until', () => {
  it('counts each poll in the checkpoint, waits the declared delays, and gives up past its bound', async () => {
    const { run, saves } = aRun();
    const count: Record<string, number> = {};
    const poll = {
      count,
      key: 'media',
      read: async () => ({ waiting: true }) as const,
      delays: [10, 20],
      maxPolls: 3,
      tooLong: () => new Error('still processing'),
    };
    const delays: number[] = [];
    for (let polls = 0; polls < 3; polls++) {
      const paused = await pollUntil(run, poll).catch((error: unknown) => error);
      expect(paused).toBeInstanceOf(Pause);
      delays.push((paused as Pause).delaySeconds);
    }
    expect(delays).toEqual([10, 20, 20]);
    expect(saves).toHaveLength(3);
    await expect(pollUntil(run, poll)).rejects.toThrow('still processing');
    await run.end();
  });

  it('answers what the platform has once it is done, with no pause', async () => {
    const { run } = aRun();
    const done = await pollUntil(run, { count: {}, key: 'x', read: async () => ({ done: 'ready' }), delays: [1], tooLong: () => new Error('no') });
    expect(done).toBe('ready');
    await run.end();
  });
});

describe('poll each until', () => {
  it('follows N requests on one count: reads only those not final, waits growing delays, waits first for the platform', async () => {
    const { run, saves } = aRun();
    const requests = [
      { id: 'a', status: undefined as string | undefined, readsLeft: 1 },
      { id: 'b', status: undefined as string | undefined, readsLeft: 3 },
      { id: 'c', status: 'SUCCESS' as string | undefined, readsLeft: 0 },
    ];
    const reads: string[] = [];
    const checkpoint: { polls?: number } = {};
    const follow = (since: number) =>
      pollEachUntil(run, {
        items: requests,
        final: (request) => request.status !== undefined,
        read: async (request) => {
          reads.push(request.id);
          if (--request.readsLeft <= 0) request.status = 'SUCCESS';
        },
        giveUp: () => undefined,
        count: checkpoint,
        key: 'polls',
        first: { since, seconds: 5 },
        delays: (polls) => Math.min(30, 5 * 2 ** polls),
      });
    // just accepted: the first read waits for the platform, reading nothing
    expect(((await follow(clock.now()).catch((error: unknown) => error)) as Pause).delaySeconds).toBe(5);
    expect(reads).toEqual([]);
    const waits: number[] = [];
    for (let poll = 0; poll < 2; poll++) waits.push(((await follow(0).catch((error: unknown) => error)) as Pause).delaySeconds);
    expect(waits).toEqual([10, 20]);
    await follow(0); // the last one ends: done, no pause
    expect(reads).toEqual(['a', 'b', 'b', 'b']);
    expect(checkpoint.polls).toBe(2);
    expect(saves).toHaveLength(2);
    await run.end();
  });

  it('past its deadline, gives the requests still open up as the kind says and ends, saved', async () => {
    const { run, saves } = aRun();
    const requests = [{ status: undefined as string | undefined }, { status: 'SUCCESS' as string | undefined }];
    await pollEachUntil(run, {
      items: requests,
      final: (request) => request.status !== undefined,
      read: async () => undefined,
      giveUp: (left) => {
        for (const request of left) request.status = 'REQUEST_STATUS_UNKNOWN';
      },
      count: {},
      key: 'polls',
      delays: [60],
      deadline: clock.now() - 1,
    });
    expect(requests.map((request) => request.status)).toEqual(['REQUEST_STATUS_UNKNOWN', 'SUCCESS']);
    expect(saves).toHaveLength(1);
    await run.end();
  });
});

describe('send in order', () => {
  it('saves each acknowledgement before the next send; a run after a crash sends only what was not acknowledged', async () => {
    const parts = ['a', 'b', 'c'];
    const acked: string[] = [];
    const sent: string[] = [];
    const { run, saves } = aRun();
    const sendAll = (failOn?: string) =>
      sendInOrder(run, {
        next: () => parts[acked.length],
        send: async (part) => {
          sent.push(part);
          if (part === failOn) throw new Error('the process died');
          return `etag-${part}`;
        },
        acknowledge: (part) => acked.push(part),
      });
    await expect(sendAll('b')).rejects.toThrow('the process died');
    expect(acked).toEqual(['a']);
    expect(saves).toHaveLength(1);
    await sendAll();
    expect(sent).toEqual(['a', 'b', 'b', 'c']);
    expect(acked).toEqual(parts);
    await run.end();
  });

  it('reads its items on from a stream (a file read from the checkpoint): the next one is read only once the last is acknowledged', async () => {
    const rows = ['r1', 'r2', 'r3', 'r4', 'r5'];
    let resumeAt = 0;
    const events: string[] = [];
    const { run, saves } = aRun();
    async function* batchesFrom(start: number) {
      for (let at = start; at < rows.length; at += 2) {
        events.push(`read ${at}`);
        yield { rows: rows.slice(at, at + 2), next: Math.min(at + 2, rows.length) };
      }
    }
    const sendAll = (failOn?: string) => {
      const batches = batchesFrom(resumeAt);
      return sendInOrder(run, {
        next: async () => {
          const read = await batches.next();
          return read.done ? undefined : read.value;
        },
        send: async (batch) => {
          events.push(`send ${batch.rows.join('+')}`);
          if (batch.rows.includes(failOn ?? '')) throw new Error('the process died');
          return batch.rows.length;
        },
        acknowledge: (batch) => {
          events.push(`ack ${batch.rows.join('+')}`);
          resumeAt = batch.next;
        },
      });
    };
    await expect(sendAll('r3')).rejects.toThrow('the process died');
    expect(resumeAt).toBe(2);
    await sendAll();
    expect(events).toEqual(['read 0', 'send r1+r2', 'ack r1+r2', 'read 2', 'send r3+r4', 'read 2', 'send r3+r4', 'ack r3+r4', 'read 4', 'send r5', 'ack r5']);
    expect(saves).toHaveLength(3);
    await run.end();
  });
});

describe('job kinds', () => {
  it('read a stored job through their schemas: a record that does not fit fails loudly, never half-typed', () => {
    const broken = aJob('ad_media', { platform: 'social' }, { polls: 0 });
    expect(() => JOB_KINDS.ad_media.platformOf(broken)).toThrow(/adAccountId|objectKey/);
    const good = aJob('ad_media', { objectKey: 'k', platform: 'professional', adAccountId: '5' }, { polls: 0 });
    expect(JOB_KINDS.ad_media.platformOf(good)).toBe('professional');
  });

  it('every kind shows its progress in the shape get_job declares for it', () => {
    const media = aJob('ad_media', { objectKey: 'k', platform: 'social', adAccountId: '5' }, { polls: 2, processing: { status: 'processing', percent: 40 } });
    expect(JOB_PROGRESS.ad_media(media)).toEqual({ bytesSent: 0, totalBytes: 0, chunksSent: 0, processing: { status: 'processing', percent: 40 } });
    const launch = aJob(
      'campaign_launch',
      {
        platform: 'professional',
        plan: { adAccountId: '5' },
        steps: ['group', 'campaign', 'creative:0', 'creative:1'],
        activate: true,
        ads: [],
        campaignName: 'c',
      },
      { receipts: [{ step: 'group', type: 'campaign_group', platformId: 'g1' }] },
    );
    expect(JOB_PROGRESS.campaign_launch(launch)).toEqual({
      steps: [
        { step: 'group', status: 'done', platformId: 'g1' },
        { step: 'campaign', status: 'pending' },
        { step: 'creative:0', status: 'pending' },
        { step: 'creative:1', status: 'pending' },
        { step: 'activate', status: 'pending' },
      ],
    });
  });
});
