import { AuditUnit, draftOf, runAudited, systemActor } from '../../shared/core/audit.ts';
import { clock } from '../../shared/core/clock.ts';
import { LaunchRefused, type PlatformDetail, PlatformRateLimited, PlatformTimeout, PlatformUnavailable, ServiceError } from '../../shared/core/errors.ts';
import { log } from '../../shared/core/logger.ts';
import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import type { GraphParams } from '../../shared/platforms/social/client.ts';
import { creativeParams } from '../../shared/platforms/social/launch-plan.ts';
import {
  createObject,
  deleteObject,
  findByName,
  type LaunchEdge,
  launchRefusalOf,
  type Parent,
  pauseObject,
  videoThumbnail,
} from '../../shared/platforms/social/launch.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import type { LaunchCheckpoint, LaunchJobRequest, LaunchObjectType, LaunchReceipt } from '../../shared/store/audience-jobs.ts';
import { campaignStatusAudit } from '../../shared/schemas/campaign-control.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { appendHistoryEntry } from '../../shared/store/optimization-history-writes.ts';
import type { User } from '../../shared/store/users.ts';
import { type JobRun, Pause } from './audience-job-run.ts';
import { updateCampaignStatus } from './campaign-control.ts';

/**
 * A social campaign_launch job (docs/decisions.md, "Launching a whole campaign"): campaign (PAUSED,
 * holding the daily budget), ad set, then a creative and an ad per ad, then the activation when asked.
 *
 * Exactly once per object: before a create is sent, the step is saved as pending; its id is saved as
 * a receipt before the next call. A run that finds a step pending with no receipt (a crash, or an
 * answer that never came) reads the parent back for the object's exact name, created since the job
 * began (less 5 minutes), and adopts it; it sends the create again only when the platform certainly
 * has none, and ends UNKNOWN_OUTCOME when it cannot tell. A creative has no read-back (the platform
 * keeps no creation time, names repeat): it is made again, and one lost unused creative never delivers.
 * A refusal that retrying cannot mend undoes every receipt, newest first (docs/decisions.md, "Rollback").
 */

/** How long before the job began a read-back looks, for clocks that disagree. */
const READ_BACK_SLACK_SECONDS = 300;
/** How often one create may be sent after its answers were lost and the platform showed nothing. */
const MAX_SENDS = 3;
/** Waits for a video's thumbnails (it is still processing). */
const THUMBNAIL_WAIT_SECONDS = 30;
const THUMBNAIL_WAITS = 40;
/** A launch parked by throttling longer than this fails PLATFORM_RATE_LIMITED, and is undone. */
const PARK_LIMIT_MS = 24 * 3_600_000;

export interface SocialLaunchResult {
  campaignId: string;
  adSetId: string;
  ads: Array<{ adId: string; creativeId: string }>;
  status: 'PAUSED' | 'ACTIVE';
}

/** The launch has ended failed: its error, whether it was undone, and what was left. */
export class LaunchEnded extends Error {
  constructor(
    readonly failure: ServiceError,
    readonly rolledBack: boolean,
    readonly orphans: Array<{ type: LaunchObjectType; id: string }>,
  ) {
    super(failure.message);
  }
}

const lostAnswer = (error: unknown) => error instanceof PlatformTimeout || error instanceof PlatformUnavailable;

export async function runSocialLaunchJob(run: JobRun, user: User): Promise<SocialLaunchResult> {
  const request = run.job.request as LaunchJobRequest;
  const checkpoint = run.job.checkpoint as LaunchCheckpoint;
  const session = socialSession(user, run.context);
  const launch = new Launch(run, request, checkpoint, session, user.connections.social?.scopes?.split(' '));
  if (checkpoint.failure) return launch.undo(checkpoint.failure);
  try {
    return await launch.make();
  } catch (error) {
    if (error instanceof Pause || error instanceof LaunchEnded) throw error;
    if (error instanceof PlatformRateLimited && clock.now() - Date.parse(run.job.createdAt) < PARK_LIMIT_MS) throw error;
    const final = error instanceof ServiceError ? error : new LaunchRefused('social', 'PLATFORM_REJECTED', 'The launch failed unexpectedly.');
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
  return detail ? { platform: detail } : {};
};

class Launch {
  private readonly sinceSeconds: number;

  constructor(
    private readonly run: JobRun,
    private readonly request: LaunchJobRequest,
    private readonly checkpoint: LaunchCheckpoint,
    private readonly session: ReturnType<typeof socialSession>,
    private readonly scopes: string[] | undefined,
  ) {
    this.sinceSeconds = Math.floor(Date.parse(run.job.createdAt) / 1000) - READ_BACK_SLACK_SECONDS;
  }

  async make(): Promise<SocialLaunchResult> {
    const { plan } = this.request;
    const account = plan.adAccountId;
    const campaignId = await this.step('campaign', 'campaign', 'campaigns', { edge: 'campaigns', adAccountId: account }, () => plan.campaign);
    const adSetId = await this.step('adset', 'adset', 'adsets', { edge: 'adsets', campaignId }, () => ({ ...plan.adSet, campaign_id: campaignId }));
    const ads: SocialLaunchResult['ads'] = [];
    for (const [index, ad] of plan.ads.entries()) {
      const creativeId = await this.step(`creative:${index}`, 'creative', 'adcreatives', undefined, async () =>
        creativeParams(ad.creative, ad.media.videoId ? (await this.thumbnailOf(ad.media.videoId)).url : undefined),
      );
      const adId = await this.step(`ad:${index}`, 'ad', 'ads', { edge: 'ads', adSetId }, () => ({
        ...ad.ad,
        adset_id: adSetId,
        creative: JSON.stringify({ creative_id: creativeId }),
      }));
      ads.push({ adId, creativeId });
    }
    await this.recordHistory(campaignId, adSetId, ads);
    const status = this.request.activate ? await this.activate(campaignId) : 'PAUSED';
    return { campaignId, adSetId, ads, status };
  }

  /** One create, exactly once: its receipt if it has one, else a read-back of a create in flight, else the create. */
  private async step(
    step: string,
    type: LaunchObjectType,
    edge: LaunchEdge,
    parent: Parent | undefined,
    params: () => GraphParams | Promise<GraphParams>,
  ): Promise<string> {
    const done = this.checkpoint.receipts.find((receipt) => receipt.step === step);
    if (done) return done.platformId;
    this.run.checkTime();
    if (this.checkpoint.pending?.step === step && parent) {
      const adopted = await this.readBack(step, parent, params);
      if (adopted) return this.receipt(step, type, adopted);
    }
    const body = await params();
    for (;;) {
      const sends = this.checkpoint.pending?.step === step ? this.checkpoint.pending.sends + 1 : 1;
      if (sends > MAX_SENDS) throw this.unknown(step, `its answer was lost ${MAX_SENDS} times`);
      this.checkpoint.pending = { step, sends };
      await this.run.save();
      try {
        return await this.receipt(step, type, await createObject(this.session, this.request.plan.adAccountId, edge, body));
      } catch (error) {
        if (!lostAnswer(error)) throw launchRefusalOf(error, stepName(step), this.scopes);
        log().warn('a launch create lost its answer; reading back', { step, sends });
        if (parent) {
          const adopted = await this.readBack(step, parent, params);
          if (adopted) return this.receipt(step, type, adopted);
        }
      }
    }
  }

  /** The object a lost create may have made: one match is it; none, it was not made; more, or no answer, cannot be told. */
  private async readBack(step: string, parent: Parent, params: () => GraphParams | Promise<GraphParams>): Promise<string | undefined> {
    const name = String((await params()).name);
    let found: Awaited<ReturnType<typeof findByName>>;
    try {
      found = await findByName(this.session, parent, name, this.sinceSeconds);
    } catch (error) {
      if (error instanceof PlatformRateLimited) throw error;
      throw this.unknown(step, 'the read-back of the platform failed too');
    }
    if (found.length > 1) throw this.unknown(step, `${found.length} objects of that name were made since the launch began`);
    return found[0]?.id;
  }

  private unknown(step: string, why: string): LaunchRefused {
    return new LaunchRefused(
      'social',
      'UNKNOWN_OUTCOME',
      `The platform may or may not have made the ${stepName(step)}: ${why}. Check the ad account; what the launch made is undone.`,
    );
  }

  private async receipt(step: string, type: LaunchObjectType, platformId: string): Promise<string> {
    this.checkpoint.receipts.push({ step, type, platformId });
    delete this.checkpoint.pending;
    await this.run.save();
    return platformId;
  }

  /** A video's thumbnail (read once, kept in the checkpoint): the job waits on queue delays while the video processes. */
  private async thumbnailOf(videoId: string): Promise<{ url: string; width: number; height: number }> {
    const known = this.checkpoint.thumbnails?.[videoId];
    if (known) return known;
    const thumbnail = await videoThumbnail(this.session, videoId);
    if (!thumbnail) {
      this.run.job.progress.batchesSent += 1; // the waits so far
      const waits = this.run.job.progress.batchesSent;
      if (waits > THUMBNAIL_WAITS)
        throw new LaunchRefused(
          'social',
          'MEDIA_NOT_READY',
          `The video ${videoId} was still processing after ${(THUMBNAIL_WAITS * THUMBNAIL_WAIT_SECONDS) / 60} minutes.`,
        );
      await this.run.save();
      throw new Pause(THUMBNAIL_WAIT_SECONDS);
    }
    this.checkpoint.thumbnails = { ...this.checkpoint.thumbnails, [videoId]: thumbnail };
    await this.run.save();
    return thumbnail;
  }

  /** The campaign's optimization-history record: one entry per ad, its texts and its image. Stored once. */
  private async recordHistory(campaignId: string, adSetId: string, ads: SocialLaunchResult['ads']): Promise<void> {
    const { job } = this.run;
    for (const [index, ad] of ads.entries()) {
      if (index < (this.checkpoint.historyEntries ?? 0)) continue; // stored by a run before a crash
      const about = this.request.ads[index];
      const videoId = this.request.plan.ads[index]?.media.videoId;
      const thumbnail = videoId ? this.checkpoint.thumbnails?.[videoId] : undefined;
      const image = about?.image ?? (thumbnail && videoId ? { id: videoId, ...thumbnail } : undefined);
      await appendHistoryEntry(
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
            platform: 'social',
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

  /** The one switch: the campaign ACTIVE, through campaign control (its lease, its read-back, its history entry). */
  private async activate(campaignId: string): Promise<'ACTIVE'> {
    const { job } = this.run;
    const input = { userId: job.userId, campaignId, status: 'ACTIVE' as const, validateOnly: false };
    // audited as update_campaign_status is, in the name of whoever started the launch
    const audit = new AuditUnit((result, failure) =>
      draftOf(campaignStatusAudit, { tenantId: job.tenantId, platform: 'social', input, result, ...(failure ? { failure } : {}) }),
    );
    const scope = {
      actor: job.startedBy?.actor ?? systemActor('run-audience-jobs'),
      ...(job.startedBy?.requestId ? { requestId: job.startedBy.requestId } : {}),
    };
    await runAudited(scope, audit, recordAuditEvent, () =>
      updateCampaignStatus(socialCampaignControl, this.session, { tenantId: job.tenantId, userId: job.userId, input, audit }),
    );
    if (!this.checkpoint.receipts.some((receipt) => receipt.step === 'activate'))
      this.checkpoint.receipts.push({ step: 'activate', type: 'campaign', platformId: campaignId });
    await this.run.save();
    return 'ACTIVE';
  }

  /**
   * Every receipt undone, newest first: deleted, or (when the delete keeps failing) paused and listed
   * as an orphan. Each is saved as it goes, so a run after a crash goes on where this one stopped.
   */
  async undo(failure: NonNullable<LaunchCheckpoint['failure']>): Promise<never> {
    this.checkpoint.failure = failure;
    this.checkpoint.orphans ??= [];
    await this.run.save();
    const made = this.checkpoint.receipts.filter((receipt) => receipt.step !== 'activate' && !receipt.undone);
    for (const receipt of made.reverse()) {
      if (this.checkpoint.orphans.some((orphan) => orphan.id === receipt.platformId)) continue;
      await this.undoOne(receipt);
      await this.run.save();
    }
    const orphans = this.checkpoint.orphans;
    throw new LaunchEnded(new LaunchFailure(failure), orphans.length === 0, orphans);
  }

  private async undoOne(receipt: LaunchReceipt): Promise<void> {
    try {
      await deleteObject(this.session, receipt.platformId);
      receipt.undone = true;
      return;
    } catch (error) {
      if (error instanceof PlatformRateLimited) throw error; // parked: the next run goes on undoing
      log().warn('a launch object could not be deleted; pausing it', { type: receipt.type, reason: (error as Error).name });
    }
    if (receipt.type !== 'creative') await pauseObject(this.session, receipt.platformId).catch(() => undefined);
    (this.checkpoint.orphans as NonNullable<LaunchCheckpoint['orphans']>).push({ type: receipt.type, id: receipt.platformId });
  }
}

/** A stored failure as the job's error. */
class LaunchFailure extends ServiceError {
  constructor(failure: NonNullable<LaunchCheckpoint['failure']>) {
    super(422, failure.code as ServiceError['code'], failure.message, { extra: failure.platform ? { platformDetail: failure.platform } : {} });
  }
}

const stepName = (step: string) => {
  const [kind, index] = step.split(':');
  const word = { campaign: 'campaign', adset: 'ad set', creative: 'creative', ad: 'ad' }[kind as string] ?? kind;
  return index === undefined ? String(word) : `${word} of ad ${Number(index) + 1}`;
};
