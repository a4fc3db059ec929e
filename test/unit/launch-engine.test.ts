import { describe, expect, it } from 'vitest';
import { PlatformRejected, PlatformTimeout } from '../../shared/core/errors.ts';
import type { Job } from '../../shared/store/jobs.ts';
import { JobEnded, JobRun } from '../../functions/use-cases/jobs/job-run.ts';
import { candidatesOf, type LaunchPorts, type LaunchScript, runLaunch } from '../../functions/use-cases/launch/launch-engine.ts';
import type { LaunchCheckpoint, LaunchJob, LaunchJobRequest } from '../../functions/use-cases/launch/launch-records.ts';
import { lambdaContext } from '../helpers/fakes.ts';

/**
 * The launch engine on fakes (no store, no platform, no process): a kill between any two steps, a lost
 * answer at each step and a refusal at each step, for a launch of four creates. The platform is a Map
 * of objects; the store is the last saved copy of the job, with its lease; a kill is a platform call
 * that never answers, after which the run is gone (its lease taken by the next run). The stack-level
 * crash tests (social-launch-crash.test.ts, professional-launch-crash.test.ts) kill real processes for
 * a few of these paths.
 */
const STEPS = ['campaign', 'adset', 'creative:0', 'ad:0'] as const;

interface FakeObject {
  id: string;
  step: string;
  name: string;
  createdAt: number;
  removed?: true;
}

/** What a platform call does this time: answer, lose its answer after doing it, refuse, or die (the process with it) before or after doing it. */
type Fault = 'lost-answer' | 'lost-unmade' | 'refused' | 'killed-before' | 'killed-after';

function world() {
  const objects: FakeObject[] = [];
  const claims = new Map<string, string>();
  let writes = 0;
  const faults = new Map<number, Fault>();
  let killed: () => void = () => undefined;
  const killedNow = new Promise<void>((resolve) => {
    killed = resolve;
  });
  let stored: Job | undefined;
  let leaseOwner = '';

  /** One create on the platform: the n-th write meets its fault. */
  const create = async (step: string, name: string): Promise<string> => {
    const fault = faults.get(writes++);
    if (fault === 'refused') throw new PlatformRejected('social', `The platform refused the ${step}.`);
    if (fault === 'killed-before') return killedAt();
    if (fault === 'lost-unmade') throw new PlatformTimeout('social');
    const made = { id: String(1000 + objects.length), step, name, createdAt: Date.now() };
    objects.push(made);
    if (fault === 'killed-after') return killedAt();
    if (fault === 'lost-answer') throw new PlatformTimeout('social');
    return made.id;
  };
  const killedAt = () => {
    killed();
    return new Promise<never>(() => undefined); // the process is gone: this call never answers
  };

  const script: LaunchScript = {
    platform: 'social',
    control: {} as never, // activation is not asked in these launches
    session: undefined,
    make: async (steps) => {
      const ids: string[] = [];
      for (const step of STEPS) {
        const name = `${step} of the autumn launch`;
        ids.push(
          await steps.create(step, step.startsWith('creative') ? 'creative' : step.startsWith('ad:') ? 'ad' : step === 'adset' ? 'adset' : 'campaign', {
            name,
            send: () => create(step, name),
            find: async (since) =>
              candidatesOf(
                objects.filter((object) => object.name === name && object.createdAt >= since && !object.removed),
                () => true,
              ),
          }),
        );
      }
      const [campaignId = '', adSetId = '', creativeId = '', adId = ''] = ids;
      return { result: { campaignId, adSetId, ads: [{ adId, creativeId }] }, historyAdSetId: adSetId };
    },
    remove: async (receipt) => {
      const object = objects.find((candidate) => candidate.id === receipt.platformId);
      if (object) object.removed = true;
    },
    leave: async () => undefined,
    refusalOf: (error) => error,
  };

  const ports: LaunchPorts = {
    claimObject: async (_platform, id, owner) => {
      const holder = claims.get(id);
      if (holder && holder !== owner.jobId) return false;
      claims.set(id, owner.jobId);
      return true;
    },
    holders: async (_platform, ids) => new Map(ids.flatMap((id) => (claims.has(id) ? [[id, claims.get(id) ?? '']] : []))),
    decideActivation: async () => undefined,
    appendHistory: async () => ({}) as never,
  };

  const request: LaunchJobRequest = {
    platform: 'social',
    plan: { adAccountId: '1234' },
    steps: [...STEPS],
    activate: false,
    ads: [{ headline: 'Autumn', primaryText: 'Leaves fall' }],
    campaignName: 'Autumn launch',
  };
  const now = new Date().toISOString();
  stored = {
    jobId: 'job_launch',
    tenantId: 'tenant',
    userId: 'user',
    type: 'campaign_launch',
    status: 'running',
    progress: { bytesRead: 0, totalBytes: 0, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    request,
    checkpoint: { receipts: [] } satisfies LaunchCheckpoint,
  };

  /** A run of the worker: the stored job under a fresh lease, saved to the store while it holds it. */
  function startRun(owner: string) {
    leaseOwner = owner;
    const job = structuredClone(stored) as LaunchJob;
    const run = new JobRun(job, owner, lambdaContext(600_000), 'social', {
      save: async (saved, by) => {
        if (by !== leaseOwner) return 'lease-lost';
        stored = structuredClone(saved);
        return 'saved';
      },
    });
    return { run, done: runLaunch(run, job, script, ports).finally(() => run.end()) };
  }

  return {
    objects,
    faults,
    killedNow,
    startRun,
    live: () => objects.filter((object) => !object.removed),
    stored: () => stored as LaunchJob,
  };
}

describe('the launch engine', () => {
  it('makes each object once, in order, with a receipt for each', async () => {
    const launch = world();
    const result = await launch.startRun('run-1').done;
    expect(launch.objects.map((object) => object.step)).toEqual([...STEPS]);
    expect(result).toMatchObject({ campaignId: '1000', adSetId: '1001', ads: [{ creativeId: '1002', adId: '1003' }], status: 'PAUSED' });
    expect(launch.stored().checkpoint.receipts.map((receipt) => receipt.step)).toEqual([...STEPS]);
  });

  for (const [index, step] of STEPS.entries()) {
    for (const fault of ['killed-before', 'killed-after'] as const) {
      it(`a kill ${fault === 'killed-before' ? 'before' : 'after'} the platform made the ${step}: the next run makes every object once`, async () => {
        const launch = world();
        launch.faults.set(index, fault);
        const first = launch.startRun('run-1');
        await launch.killedNow;
        await first.run.end(); // the process is gone: its heartbeat with it
        const result = await launch.startRun('run-2').done;
        expect(launch.objects.map((object) => object.step)).toEqual([...STEPS]);
        expect(result.ads).toEqual([{ creativeId: '1002', adId: '1003' }]);
        expect(launch.stored().checkpoint.pending).toBeUndefined();
      });
    }

    it(`a lost answer on the ${step}: read back and adopted, never sent twice`, async () => {
      const launch = world();
      launch.faults.set(index, 'lost-answer');
      const result = await launch.startRun('run-1').done;
      expect(launch.objects.map((object) => object.step)).toEqual([...STEPS]);
      expect(result.campaignId).toBe('1000');
    });

    it(`a refusal of the ${step}: everything made before it is undone, newest first, and the launch ends rolled back`, async () => {
      const launch = world();
      launch.faults.set(index, 'refused');
      const ended = await launch.startRun('run-1').done.catch((error: unknown) => error);
      expect(ended).toBeInstanceOf(JobEnded);
      expect(ended).toMatchObject({ rolledBack: true, orphans: [], failure: { code: 'PLATFORM_REJECTED' } });
      expect(launch.objects.map((object) => object.step)).toEqual(STEPS.slice(0, index));
      expect(launch.live()).toEqual([]);
      expect(launch.stored().checkpoint.receipts.every((receipt) => receipt.undone)).toBe(true);
    });
  }

  it('lost answers on three steps in a row: each read back and adopted', async () => {
    const launch = world();
    for (const write of [1, 2, 3]) launch.faults.set(write, 'lost-answer');
    const result = await launch.startRun('run-1').done;
    expect(launch.objects.map((object) => object.step)).toEqual([...STEPS]);
    expect(result.adSetId).toBe('1001');
  });

  it('a create the platform never made while its answers were lost is sent again; after three, UNKNOWN_OUTCOME names it as possible', async () => {
    const once = world();
    once.faults.set(1, 'lost-unmade');
    await once.startRun('run-1').done;
    expect(once.objects.map((object) => object.step)).toEqual([...STEPS]);

    const thrice = world();
    for (const write of [1, 2, 3]) thrice.faults.set(write, 'lost-unmade');
    const ended = await thrice.startRun('run-1').done.catch((error: unknown) => error);
    expect(ended).toMatchObject({
      failure: { code: 'UNKNOWN_OUTCOME' },
      rolledBack: false,
      orphans: [{ type: 'adset', id: null, name: 'adset of the autumn launch', possible: true }],
    });
    expect(thrice.live()).toEqual([]); // the campaign it did make is undone
  });

  it('a second run that finds the job held by a live run stops without a word (its saves are refused)', async () => {
    const launch = world();
    launch.faults.set(1, 'killed-after');
    const first = launch.startRun('run-1');
    await launch.killedNow;
    const second = launch.startRun('run-2');
    await second.done;
    await first.run.end();
    // the first run's saves are refused once the second holds the lease
    await expect(first.run.save()).rejects.toMatchObject({ name: 'LeaseLost' });
    expect(launch.objects.map((object) => object.step)).toEqual([...STEPS]);
  });
});
