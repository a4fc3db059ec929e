import { AuditUnit, draftOf, runAudited, systemActor } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { Conflict, LaunchRefused, PlatformNotConnected, type PlatformDetail, PlatformRateLimited, ServiceError } from '../../../shared/core/errors.ts';
import type { Platform } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { CampaignControl } from '../../../shared/platforms/campaign-control.ts';
import { campaignStatusAudit } from '../../../shared/schemas/campaign-control.ts';
import { exactlyOnce, type StepStore } from '../../../shared/core/exactly-once.ts';
import type { LaunchObjectType, LaunchOrphan } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { recordedOnce, underCampaignLease } from '../../../shared/store/campaign-changes.ts';
import { keys } from '../../../shared/store/keys.ts';
import { claimLaunchObject, decideLaunchActivation, launchObjectHolders } from '../../../shared/store/launch-claims.ts';
import { appendHistoryEntry } from '../../../shared/store/optimization-history-writes.ts';
import { JobEnded, type JobRun, LeaseLost, Pause } from '../jobs/job-run.ts';
import { lostAnswer } from '../jobs/steps.ts';
import type { LaunchCheckpoint, LaunchJob, LaunchJobRequest, LaunchReceipt } from './launch-records.ts';
import { updateCampaignStatus } from '../control/campaign-control.ts';

/**
 * The campaign_launch engine (docs/decisions.md, "Launching a whole campaign" and "Launch identity"),
 * the same for every platform: a platform's script names the creates in order and how each is sent and
 * found again; the engine makes each exactly once, records the history, activates through campaign
 * control, and undoes.
 *
 * Exactly once per object: before a create is sent, the step is saved as pending with the time it was
 * first sent; its id is saved as a receipt (and claimed in the index of every launch's objects) before
 * the next call. A run that finds a step pending with no receipt (a crash, or an answer that never
 * came) reads back before it sends anything, and adopts an object only when this job can have made it:
 * no other job's receipt, made after the step was first sent (less the platform's clock slack), and
 * matching what was sent. None found: sent again. Anything else: UNKNOWN_OUTCOME naming the candidates.
 * A refusal that retrying cannot mend undoes every receipt, newest first; `rolledBack` is true only when
 * nothing the job may have made is left.
 */

/** How far the platform's clock may be behind ours when it stamps an object's creation. */
export const CLOCK_SLACK_MS = 60_000;
/** How often one create may be sent after its answers were lost and the platform showed nothing. */
const MAX_SENDS = 3;
/** A launch parked by throttling longer than this fails PLATFORM_RATE_LIMITED, and is undone. */
const PARK_LIMIT_MS = 24 * 3_600_000;
/** A launch whose campaign another request is changing waits this long and tries the activation again. */
const LEASE_BUSY_SECONDS = 15;

/** What every launch answers; a platform adds its own levels (an ad set, a campaign group). */
export interface LaunchResult {
  campaignId: string;
  ads: Array<{ adId: string; creativeId: string }>;
  status: 'PAUSED' | 'ACTIVE';
  /** social: the one ad set */
  adSetId?: string;
  /** professional: the campaign group */
  campaignGroupId?: string;
}

/** An object a read-back found: its id, and whether it is what the step sent (parent, objective, budget, status). */
export interface Candidate {
  id: string;
  matches: boolean;
}

/** One create as the engine makes it: how it is sent, and how it is found again. */
export interface LaunchCreate {
  /** the object's name: what a read-back looks for, and what a possible orphan is called */
  name: string;
  /** what must be known before the create is sent (a video's thumbnail): may wait (Pause) without counting as a send */
  prepare?: () => Promise<void>;
  send: () => Promise<string>;
  /** the objects of this exact name under the parent made since `sinceMs` (epoch ms); none: the platform cannot tell (the create is never sent again blind) */
  find?: (sinceMs: number) => Promise<Candidate[]>;
}

/** A value as the platform wrote it back, the same as what was sent (numbers come back as numbers or strings); a field left out is no match. */
export const sameAsSent = (found: unknown, sent: unknown) => found !== undefined && found !== null && String(found) === String(sent);

/** What a script's read-back found, each with whether it is what the step sent. */
export const candidatesOf = <Row extends { id: string | number }>(rows: Row[], matches: (row: Row) => boolean): Candidate[] =>
  rows.map((row) => ({ id: String(row.id), matches: matches(row) }));

/** The store's side of a launch's identity (the index of every launch's objects; the activation's mark). */
export interface LaunchPorts {
  claimObject: typeof claimLaunchObject;
  holders: typeof launchObjectHolders;
  decideActivation: typeof decideLaunchActivation;
  appendHistory: typeof appendHistoryEntry;
}

const storePorts: LaunchPorts = {
  claimObject: claimLaunchObject,
  holders: launchObjectHolders,
  decideActivation: decideLaunchActivation,
  appendHistory: appendHistoryEntry,
};

/** What a script's steps see: the job's run and checkpoint, and the one way to make an object. */
export interface LaunchSteps {
  run: JobRun;
  request: LaunchJobRequest;
  checkpoint: LaunchCheckpoint;
  create(step: string, type: LaunchObjectType, create: LaunchCreate): Promise<string>;
}

/** A platform's side of a launch: its creates in order, its deletes, and its refusals in the launch's words. */
export interface LaunchScript<Session = unknown> {
  platform: Platform;
  /** makes every object through `steps.create`; `historyAdSetId` is the level that holds budget and targeting */
  make(steps: LaunchSteps): Promise<{ result: Omit<LaunchResult, 'status'>; historyAdSetId: string }>;
  /** deletes what a receipt names (or sets it to the platform's deletion status); throws when it cannot */
  remove(receipt: LaunchReceipt): Promise<void>;
  /** what could not be removed spends nothing (best effort) */
  leave(receipt: LaunchReceipt): Promise<void>;
  /** a platform's refusal in the launch's words (docs/errors.md, "Launch errors") */
  refusalOf(error: unknown, step: string): unknown;
  control: CampaignControl<Session>;
  session: Session;
}

/** A platform's launch, as the campaign_launch job finds it (launch-job.ts): its run. */
export interface LaunchScriptModule {
  run(run: JobRun, job: LaunchJob, user: User): Promise<LaunchResult>;
}

export async function runLaunch(run: JobRun, job: LaunchJob, script: LaunchScript, ports: LaunchPorts = storePorts): Promise<LaunchResult> {
  const { checkpoint } = job;
  const launch = new Launch(run, job, script, ports);
  if (checkpoint.failure) return launch.undo(checkpoint.failure);
  try {
    return await launch.make();
  } catch (error) {
    if (error instanceof Pause || error instanceof JobEnded || error instanceof LeaseLost) throw error;
    // the user disconnected: the grant is gone, so nothing can be undone; what was made is listed
    if (error instanceof PlatformNotConnected) {
      const left = launchLeftovers(checkpoint);
      throw new JobEnded(error, left.length === 0, left);
    }
    if (error instanceof PlatformRateLimited && clock.now() - Date.parse(job.createdAt) < PARK_LIMIT_MS) throw error;
    const final = error instanceof ServiceError ? error : new LaunchRefused(script.platform, 'PLATFORM_REJECTED', 'The launch failed unexpectedly.');
    if (!isFinalForLaunch(final)) throw error; // the queue runs it again; the dead-letter path lists what it made
    return launch.undo({ code: final.code, message: final.message, ...platformOf(final) });
  }
}

/** A failure the same request would meet again: undo and end. Anything else (a platform outage on a read) goes back to the queue. */
function isFinalForLaunch(error: ServiceError): boolean {
  if (error instanceof PlatformRateLimited) return true; // parked past its limit
  return error.status < 500 || error instanceof LaunchRefused;
}

const platformOf = (error: ServiceError) => {
  const detail = error.extra.platformDetail as PlatformDetail | undefined;
  const minimum = error.extra.minimum as { amount: string; currency: string } | undefined;
  return { ...(detail ? { platform: detail } : {}), ...(minimum ? { minimum } : {}) };
};

type Pending = NonNullable<LaunchCheckpoint['pending']>;

class Launch implements LaunchSteps {
  readonly request: LaunchJobRequest;
  readonly checkpoint: LaunchCheckpoint;

  readonly run: JobRun;
  private readonly job: LaunchJob;
  private readonly script: LaunchScript;
  private readonly ports: LaunchPorts;

  constructor(run: JobRun, job: LaunchJob, script: LaunchScript, ports: LaunchPorts) {
    this.run = run;
    this.job = job;
    this.script = script;
    this.ports = ports;
    this.request = job.request;
    this.checkpoint = job.checkpoint;
  }

  async make(): Promise<LaunchResult> {
    const { result, historyAdSetId } = await this.script.make(this);
    await this.recordHistory(result.campaignId, historyAdSetId, result.ads);
    const status = this.request.activate ? await this.activate(result.campaignId) : 'PAUSED';
    return { ...result, status };
  }

  /**
   * One create, exactly once (a create-once step with an undo): its receipt if it has one, else a
   * read-back of a create in flight, else the create. The step record is the checkpoint's: `pending`
   * while in flight, a receipt once made.
   */
  async create(step: string, type: LaunchObjectType, { name, prepare, send, find }: LaunchCreate): Promise<string> {
    const outcome = await exactlyOnce<string, Pending, string>({
      store: this.steps,
      key: step,
      decide: async () => {
        this.run.checkTime();
        await prepare?.();
        return { intent: { step, type, name, sends: 0, firstSentAt: clock.now() } };
      },
      perform: async (pending, resumed) => {
        if (resumed) {
          this.run.checkTime();
          const adopted = await this.readBack(step, find);
          if (adopted) return adopted;
          await prepare?.();
        }
        return this.send(pending, send, find);
      },
    });
    if (outcome.by === 'busy') throw new LeaseLost();
    return outcome.result;
  }

  /** Sent, and sent again only while its answers are lost and the read-back shows nothing, at most MAX_SENDS times. */
  private async send(pending: Pending, send: LaunchCreate['send'], find: LaunchCreate['find']): Promise<string> {
    const { step } = pending;
    for (;;) {
      const sends = (this.checkpoint.pending?.sends ?? pending.sends) + 1;
      if (sends > MAX_SENDS) throw this.unknown(step, `its answer was lost ${MAX_SENDS} times`);
      this.checkpoint.pending = { ...pending, ...this.checkpoint.pending, sends };
      await this.run.save();
      try {
        return await send();
      } catch (error) {
        if (!lostAnswer(error)) {
          // refused or throttled: the platform made nothing, and the next send is a first one
          delete this.checkpoint.pending;
          await this.run.save();
          throw this.script.refusalOf(error, stepName(step));
        }
        log().warn('a launch create lost its answer; reading back', { step, sends });
        const adopted = await this.readBack(step, find);
        if (adopted) return adopted;
      }
    }
  }

  /** The launch's creates as exactlyOnce sees them: a receipt is a completed step, `pending` the one in progress. */
  private readonly steps: StepStore<string, Pending, string> = {
    find: async (step) => {
      const receipt = this.checkpoint.receipts.find((candidate) => candidate.step === step);
      if (receipt) return { status: 'completed', intent: { step, type: receipt.type, sends: 0 }, result: receipt.platformId };
      const { pending } = this.checkpoint;
      return pending?.step === step ? { status: 'in_progress', intent: pending } : undefined;
    },
    begin: async (_step, pending) => {
      this.checkpoint.pending = pending;
      await this.run.save();
      return true;
    },
    complete: async (step, platformId) => {
      const type = this.checkpoint.pending?.type ?? stepType(step);
      await this.receipt(step, type, platformId);
      return true;
    },
  };

  /**
   * The object a create in flight may have made, when this job can have made it: one this job claimed
   * already (a crash between the claim and the checkpoint), else the one unclaimed object made since the
   * step was first sent that matches what was sent. Undefined: the platform has none (sent again).
   */
  private async readBack(step: string, find: LaunchCreate['find']): Promise<string | undefined> {
    if (!find) throw this.unknown(step, 'the platform offers no way to find it again, and it is never sent twice blind');
    const firstSentAt = this.checkpoint.pending?.firstSentAt ?? Date.parse(this.job.createdAt);
    let found: Candidate[];
    try {
      found = await find(firstSentAt - CLOCK_SLACK_MS);
    } catch (error) {
      if (error instanceof PlatformRateLimited) throw error;
      throw this.unknown(step, 'the read-back of the platform failed too');
    }
    if (found.length === 0) return undefined;
    const holders = await this.ports.holders(
      this.script.platform,
      found.map((candidate) => candidate.id),
    );
    const ours = found.find((candidate) => holders.get(candidate.id) === this.job.jobId);
    if (ours) return ours.id;
    const free = found.filter((candidate) => !holders.has(candidate.id));
    if (free.length === 0) return undefined; // every one of that name is another launch's
    if (free.length === 1 && free[0]?.matches) return free[0].id;
    const named = free.map((candidate) => candidate.id).join(', ');
    throw this.unknown(
      step,
      free.length === 1
        ? `an object of that name (${named}) was made since it was sent, but it is not what this launch sent`
        : `${free.length} objects of that name (${named}) were made since it was sent, and none can be told to be this launch's`,
    );
  }

  private unknown(step: string, why: string): LaunchRefused {
    return new LaunchRefused(
      this.script.platform,
      'UNKNOWN_OUTCOME',
      `The platform may or may not have made the ${stepName(step)}: ${why}. Check the ad account; what the launch certainly made is undone.`,
    );
  }

  /** The object is this job's: claimed in the index of every launch's objects, then its receipt saved. */
  private async receipt(step: string, type: LaunchObjectType, platformId: string): Promise<string> {
    const { tenantId, jobId } = this.job;
    if (!(await this.ports.claimObject(this.script.platform, platformId, { tenantId, jobId })))
      throw this.unknown(step, `the object found (${platformId}) is another launch's`);
    this.checkpoint.receipts.push({ step, type, platformId });
    delete this.checkpoint.pending;
    await this.run.save();
    return platformId;
  }

  /** The campaign's optimization-history record: one entry per ad, its texts and its image. Stored once. */
  private async recordHistory(campaignId: string, adSetId: string, ads: LaunchResult['ads']): Promise<void> {
    const { job } = this;
    for (const [index, ad] of ads.entries()) {
      if (index < (this.checkpoint.historyEntries ?? 0)) continue; // stored by a run before a crash
      const about = this.request.ads[index];
      const thumbnail = about?.videoId ? this.checkpoint.thumbnails?.[about.videoId] : undefined;
      const image = about?.image ?? (thumbnail && about?.videoId ? { id: about.videoId, ...thumbnail } : undefined);
      await this.ports.appendHistory(
        job.tenantId,
        {
          userId: job.userId,
          campaignId,
          entry: {
            adId: ad.adId,
            adSetId,
            headlines: [{ newText: about?.headline ?? '', oldText: '' }],
            primaryTexts: [{ newText: about?.primaryText ?? '', oldText: '' }],
            images: image ? [image] : [],
            timestamp: clock.now(),
          },
          campaign: () => ({
            campaignName: this.request.campaignName,
            platform: this.script.platform,
            optimizationStatus: 'PAUSED',
            startDate: this.request.startMs ?? Date.parse(job.createdAt),
          }),
        },
        undefined,
      );
      this.checkpoint.historyEntries = index + 1;
      await this.run.save();
    }
  }

  /**
   * The one switch: the campaign ACTIVE, through campaign control (its read-back, its history entry; on
   * the professional network its cascade). A step of its own: decided in the checkpoint before the
   * write, so a run after a crash records the change once even when it finds the campaign ACTIVE
   * already. The campaign's lease is held in the job's name, so a run after a crash takes it back at
   * once; a lease another request holds makes the launch wait, never undo itself.
   */
  private async activate(campaignId: string): Promise<'ACTIVE'> {
    if (this.checkpoint.receipts.some((receipt) => receipt.step === 'activate')) return 'ACTIVE';
    this.run.checkTime();
    const { job } = this;
    const { platform } = this.script;
    if (!this.checkpoint.activation) {
      await this.ports.decideActivation(job.tenantId, job.jobId);
      this.checkpoint.activation = 'decided';
      await this.run.save();
    }
    const input = { userId: job.userId, campaignId, status: 'ACTIVE' as const, validateOnly: false };
    // audited as update_campaign_status is, in the name of whoever started the launch
    const audit = new AuditUnit((result, failure) =>
      draftOf(campaignStatusAudit, { tenantId: job.tenantId, platform, input, result, ...(failure ? { failure } : {}) }),
    );
    const scope = {
      actor: job.startedBy?.actor ?? systemActor('run-jobs'),
      ...(job.startedBy?.requestId ? { requestId: job.startedBy.requestId } : {}),
    };
    const action = {
      decided: { field: 'status' as const, from: 'PAUSED', to: 'ACTIVE' },
      recordedOnce: recordedOnce(keys.launchActivation(job.tenantId, job.jobId)),
    };
    try {
      await underCampaignLease({ tenantId: job.tenantId, platform, campaignId, holder: `launch_${job.jobId}` }, () =>
        runAudited(scope, audit, recordAuditEvent, () =>
          updateCampaignStatus(this.script.control, this.script.session, { tenantId: job.tenantId, userId: job.userId, input, audit, action }),
        ),
      );
    } catch (error) {
      if (error instanceof Conflict) throw new Pause(LEASE_BUSY_SECONDS);
      throw error;
    }
    this.checkpoint.receipts.push({ step: 'activate', type: 'campaign', platformId: campaignId });
    await this.run.save();
    return 'ACTIVE';
  }

  /**
   * Every receipt undone, newest first: removed, or (when that keeps failing) left spending nothing and
   * listed as an orphan. Each is saved as it goes, so a run after a crash goes on where this one stopped.
   */
  async undo(failure: NonNullable<LaunchCheckpoint['failure']>): Promise<never> {
    this.checkpoint.failure = failure;
    this.checkpoint.orphans ??= [];
    const { pending } = this.checkpoint;
    // a create whose answer was lost and that no read-back found may still have made its object
    if (pending && !this.checkpoint.orphans.some((orphan) => orphan.id === null && orphan.name === pending.name))
      this.checkpoint.orphans.push({ type: pending.type ?? stepType(pending.step), id: null, name: pending.name ?? '', possible: true });
    await this.run.save();
    const made = this.checkpoint.receipts.filter((receipt) => receipt.step !== 'activate' && !receipt.undone);
    for (const receipt of made.reverse()) {
      if (this.checkpoint.orphans.some((orphan) => orphan.id === receipt.platformId)) continue;
      await this.undoOne(receipt);
      await this.run.save();
    }
    const orphans = this.checkpoint.orphans;
    throw new JobEnded(new LaunchFailure(failure), orphans.length === 0, orphans);
  }

  private async undoOne(receipt: LaunchReceipt): Promise<void> {
    try {
      await this.script.remove(receipt);
      receipt.undone = true;
      return;
    } catch (error) {
      if (error instanceof PlatformRateLimited) throw error; // parked: the next run goes on undoing
      log().warn('a launch object could not be removed; leaving it spending nothing', { type: receipt.type, reason: (error as Error).name });
    }
    await this.script.leave(receipt).catch(() => undefined);
    this.checkpoint.orphans?.push({ type: receipt.type, id: receipt.platformId });
  }
}

/**
 * What a launch that cannot undo leaves (its grant is gone, or the undo was given up): every object it
 * made and did not remove, and the one a create whose answer was lost may have made.
 */
export function launchLeftovers(checkpoint: LaunchCheckpoint): LaunchOrphan[] {
  const made: LaunchOrphan[] = checkpoint.receipts
    .filter((receipt) => receipt.step !== 'activate' && !receipt.undone)
    .map((receipt) => ({ type: receipt.type, id: receipt.platformId }));
  const { pending } = checkpoint;
  return pending ? [...made, { type: pending.type ?? stepType(pending.step), id: null, name: pending.name ?? '', possible: true }] : made;
}

/** A stored failure as the job's error. */
class LaunchFailure extends ServiceError {
  constructor(failure: NonNullable<LaunchCheckpoint['failure']>) {
    super(422, failure.code as ServiceError['code'], failure.message, {
      extra: { ...(failure.platform ? { platformDetail: failure.platform } : {}), ...(failure.minimum ? { minimum: failure.minimum } : {}) },
    });
  }
}

const STEP_WORDS: Record<string, string> = { group: 'campaign group', campaign: 'campaign', adset: 'ad set', creative: 'creative', ad: 'ad' };
const STEP_TYPES: Record<string, LaunchObjectType> = { group: 'campaign_group', campaign: 'campaign', adset: 'adset', creative: 'creative', ad: 'ad' };

/** The kind of object a step makes (for a checkpoint written before pending steps named it). */
const stepType = (step: string): LaunchObjectType => STEP_TYPES[step.split(':')[0] as string] ?? 'campaign';

/** A step as a person reads it: "creative of ad 2". */
export const stepName = (step: string) => {
  const [kind, index] = step.split(':');
  const word = STEP_WORDS[kind as string] ?? kind;
  return index === undefined ? String(word) : `${word} of ad ${Number(index) + 1}`;
};
