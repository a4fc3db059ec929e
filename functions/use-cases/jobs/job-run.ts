import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { ANSWER_MARGIN_MS } from '../../../shared/platforms/upstream.ts';
import { type Platform, PlatformNotConnected, type ServiceError } from '../../../shared/core/errors.ts';
import { type SaveOutcome, saveJobRun } from '../../../shared/store/job-writes.ts';
import type { Job, LaunchOrphan } from '../../../shared/store/jobs.ts';

/**
 * One run of a job by the worker: it holds the job's lease, saves the job (checkpoint,
 * progress, lease renewed) one write after another, and keeps the lease alive between saves with a
 * heartbeat. It ends its slice before the function's time runs out.
 */

/** The run stops to queue its continuation (now, or after the platform's wait). */
export class Pause {
  readonly delaySeconds: number;

  constructor(delaySeconds: number) {
    this.delaySeconds = delaySeconds;
  }
}

/**
 * The run ends the job failed, with what it leaves: a job kind that undoes (a launch) says whether
 * everything it made is gone and what could not be undone.
 */
export class JobEnded extends Error {
  readonly failure: ServiceError;
  readonly rolledBack?: boolean;
  readonly orphans?: LaunchOrphan[];

  constructor(failure: ServiceError, rolledBack?: boolean, orphans?: LaunchOrphan[]) {
    super(failure.message);
    this.failure = failure;
    this.rolledBack = rolledBack;
    this.orphans = orphans;
    this.name = 'JobEnded';
  }
}

/** Another run took the job over (this one's lease lapsed): this one stops without a word. */
export class LeaseLost extends Error {
  constructor() {
    super('the job is held by another run');
    this.name = 'LeaseLost';
  }
}

/**
 * Time kept back at the end of a slice to save and queue the continuation: a quarter of it, at most a
 * minute, and never less than one upstream attempt beyond the calls' own deadline, so a batch begun
 * before the end has its time, and one the deadline cuts is always past the end (a hand-over).
 */
const sliceMargin = (totalMs: number) => Math.max(Math.min(60_000, totalMs / 4), ANSWER_MARGIN_MS + config().UPSTREAM_TIMEOUT_MS);

/** The store's save of a run (a DynamoDB transaction in the functions, a Map in unit tests). */
export type SaveJob = (job: Job, owner: string, platform: Platform) => Promise<SaveOutcome>;

export class JobRun {
  /** the file's bytes when the run is the request that carried them (job-files.ts reads them, not the bucket) */
  readonly source: Uint8Array | undefined;
  private readonly store: SaveJob;
  private saving: Promise<void> = Promise.resolve();
  private readonly sliceEnd: number;
  private readonly heartbeat: NodeJS.Timeout;
  private lost = false;
  private disconnected: PlatformNotConnected | undefined;

  /**
   * `source`: the file's bytes when the run is the request that carried them (read from memory, never
   * read back from storage). Such a run has no slices: it has no continuation to hand over to, and its
   * upstream calls end by the request's own deadline.
   */
  readonly job: Job;
  readonly owner: string;
  readonly context: Context;
  /** the platform the job works on: a save checks the user still holds its connection */
  readonly platform: Platform;

  constructor(job: Job, owner: string, context: Context, platform: Platform, { source, save = saveJobRun }: { source?: Uint8Array; save?: SaveJob } = {}) {
    this.job = job;
    this.owner = owner;
    this.context = context;
    this.platform = platform;
    this.source = source;
    this.store = save;
    const remaining = context.getRemainingTimeInMillis();
    this.sliceEnd = source ? Number.POSITIVE_INFINITY : clock.now() + remaining - sliceMargin(remaining);
    this.heartbeat = setInterval(() => void this.save().catch(() => undefined), config().JOB_LEASE_MS / 3);
    this.heartbeat.unref();
  }

  /** Saves the job as it is now, after any save still under way; the lease is renewed with it. */
  save(): Promise<void> {
    const next = this.saving.then(async () => {
      if (this.disconnected) throw this.disconnected;
      if (this.lost) throw new LeaseLost();
      const outcome = await this.store(this.job, this.owner, this.platform);
      if (outcome === 'lease-lost') {
        this.lost = true;
        throw new LeaseLost();
      }
      if (outcome === 'disconnected') {
        // the user took the connection away: no further platform call is made with its grant
        const { platform } = this;
        this.disconnected = new PlatformNotConnected(
          platform,
          `The user disconnected ${platform} while the job ran; it stopped before its next call to the platform. Connect again and start it anew.`,
        );
        throw this.disconnected;
      }
    });
    this.saving = next.catch(() => undefined);
    return next;
  }

  /** Before each step that goes upstream: stop while there is time to hand over. */
  checkTime(): void {
    if (this.disconnected) throw this.disconnected;
    if (this.lost) throw new LeaseLost();
    if (this.sliceIsOver()) throw new Pause(0);
  }

  /** A call begun just before the slice ended may be cut by the function's own deadline: that is a hand-over too. */
  sliceIsOver(): boolean {
    return clock.now() >= this.sliceEnd;
  }

  async end(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.saving;
  }
}
