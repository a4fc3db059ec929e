import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { AuditUnit } from '../../shared/core/audit.ts';
import { clock } from '../../shared/core/clock.ts';
import { InvalidRequest, LaunchRefused, type ProblemDetail, ServiceError } from '../../shared/core/errors.ts';
import { log } from '../../shared/core/logger.ts';
import { fromUnits, isoDecimals, toUnits } from '../../shared/core/money.ts';
import { queueJobRun } from '../../shared/jobs/job-queue.ts';
import { creativeParams, socialLaunchPlan } from '../../shared/platforms/social/launch-plan.ts';
import {
  accountIneligibility,
  imagesByHash,
  launchRefusalOf,
  readLaunchAccount,
  validateObject,
  videoThumbnail,
} from '../../shared/platforms/social/launch.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import type { SocialLaunchInput } from '../../shared/schemas/social-launch.ts';
import { createJob } from '../../shared/store/audience-job-writes.ts';
import type { AudienceJob, LaunchJobRequest } from '../../shared/store/audience-jobs.ts';
import type { User } from '../../shared/store/users.ts';
import { auditScope } from '../../shared/core/audit.ts';
import { MAX_DAILY_BUDGET_MINOR_UNITS } from './campaign-control.ts';

/**
 * create_campaign on the social platform (docs/decisions.md, "Launching a whole campaign"): one read
 * of the ad account (currency, minimum, status) and one of the ads' images, every refusal we can
 * tell from those before anything is queued (400), then either the platform's own dry run
 * (`validateOnly`: `{valid, issues}`, nothing made) or the campaign_launch job, answered at once.
 */
interface LaunchCall {
  tenantId: string;
  user: User;
  input: SocialLaunchInput;
  context: Context;
  audit: AuditUnit;
}

export type LaunchAnswer =
  | { jobId: string; status: AudienceJob['status'] }
  | { valid: boolean; issues: Array<{ field: string; code: string; message: string }> };

export async function launchSocialCampaign(call: LaunchCall): Promise<LaunchAnswer> {
  const { input } = call;
  const session = socialSession(call.user, call.context);
  const adAccountId = session.connection.adAccountId;
  const pageId = input.pageId ?? session.connection.pageId;
  if (!pageId)
    throw new InvalidRequest('The ads need a Page to run as: send pageId (the user’s connection names none).', [
      { path: 'pageId', message: 'is required: the connection names no Page' },
    ]);
  const account = await readLaunchAccount(session, adAccountId);
  const ineligible = accountIneligibility(account);
  if (ineligible && !input.validateOnly) throw new LaunchRefused('social', 'ACCOUNT_NOT_ELIGIBLE', ineligible);
  const budgetUnits = budgetIn(input.dailyBudget, account);
  const images = await imagesOf(session, adAccountId, input);
  const plan = socialLaunchPlan(input, { adAccountId, pageId, timeZone: account.timeZone, budgetUnits });

  if (input.validateOnly) {
    call.audit.nothingWritten();
    const issues: Array<{ field: string; code: string; message: string }> = [];
    if (ineligible) issues.push({ field: 'userId', code: 'ACCOUNT_NOT_ELIGIBLE', message: ineligible });
    const check = async (field: string, step: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        const refusal = launchRefusalOf(error, step, call.user.connections.social?.scopes?.split(' '));
        if (!(refusal instanceof ServiceError) || refusal.status >= 500) throw refusal;
        issues.push({ field, code: refusal.code, message: refusal.message });
      }
    };
    await check('name', 'campaign', () => validateObject(session, adAccountId, 'campaigns', plan.campaign));
    for (const [index, ad] of plan.ads.entries()) {
      const videoId = ad.media.videoId;
      const thumbnail = videoId ? await videoThumbnail(session, videoId) : undefined;
      if (videoId && !thumbnail) {
        issues.push({ field: `ads.${index}.videoId`, code: 'MEDIA_NOT_READY', message: `The video ${videoId} is still processing; a launch waits for it.` });
        continue;
      }
      await check(`ads.${index}`, `creative:${index}`, () => validateObject(session, adAccountId, 'adcreatives', creativeParams(ad.creative, thumbnail?.url)));
    }
    return { valid: issues.length === 0, issues };
  }
  const request: LaunchJobRequest = {
    platform: 'social',
    plan,
    activate: input.activate,
    campaignName: input.name,
    ...(input.startTime ? { startMs: Date.parse(input.startTime) } : {}),
    ads: input.ads.map((ad) => ({
      headline: ad.headline,
      primaryText: ad.primaryText,
      ...(ad.imageId && images.get(ad.imageId)
        ? { image: { id: ad.imageId, ...(images.get(ad.imageId) as { url: string; width: number; height: number }) } }
        : {}),
    })),
  };
  const job = newLaunchJob(call, request);
  await createJob(job, call.audit.event({ jobId: job.jobId }));
  await queueJobRun({ tenantId: job.tenantId, jobId: job.jobId }).catch((error: unknown) =>
    log().warn('launch stored but not queued; the sweep will queue it', { jobId: job.jobId, reason: (error as Error).name }),
  );
  return { jobId: job.jobId, status: job.status };
}

/** The daily budget in the account's minor units: refused when the currency cannot hold it or the account's minimum is more. */
function budgetIn(amount: string, account: Awaited<ReturnType<typeof readLaunchAccount>>): bigint {
  const refuse = (message: string, detail: string): never => {
    throw new InvalidRequest(message, [{ path: 'dailyBudget', message: detail }]);
  };
  const units = toUnits(amount, account.decimals);
  if (units === undefined)
    return refuse(
      `dailyBudget: ${account.currency} budgets on this platform have ${account.decimals === 0 ? 'no decimals' : `at most ${account.decimals} decimals`}; ${amount} cannot be set exactly.`,
      `has more decimals than ${account.currency} allows (${account.decimals})`,
    );
  if (units * 10n ** BigInt(isoDecimals(account.currency)) > MAX_DAILY_BUDGET_MINOR_UNITS * 10n ** BigInt(account.decimals))
    return refuse(`dailyBudget: at most 1,000,000,000 minor units of ${account.currency}.`, 'is above the largest daily budget');
  if (units < account.minimumUnits) {
    const minimum = fromUnits(account.minimumUnits, account.decimals);
    return refuse(`dailyBudget: the ad account’s smallest daily budget is ${minimum} ${account.currency}.`, `must be at least ${minimum} ${account.currency}`);
  }
  return units;
}

/** The ads' images as the account has them (one read for all): an image the account lacks is refused before anything is made. */
async function imagesOf(session: ReturnType<typeof socialSession>, adAccountId: string, input: SocialLaunchInput) {
  const hashes = [...new Set(input.ads.flatMap((ad) => (ad.imageId ? [ad.imageId] : [])))];
  if (hashes.length === 0) return new Map<string, { url: string; width: number; height: number }>();
  const images = await imagesByHash(session, adAccountId, hashes);
  const missing: ProblemDetail[] = input.ads.flatMap((ad, index) =>
    ad.imageId && !images.has(ad.imageId)
      ? [{ path: `ads.${index}.imageId`, message: 'is not an image of the user’s ad account (upload it with upload_ad_media)' }]
      : [],
  );
  if (missing.length > 0) throw new InvalidRequest('Some ads name images the ad account does not have.', missing);
  return images;
}

function newLaunchJob(call: LaunchCall, request: LaunchJobRequest): AudienceJob {
  const now = clock.date().toISOString();
  const scope = auditScope();
  return {
    jobId: `job_${randomBytes(16).toString('hex')}`,
    tenantId: call.tenantId,
    userId: call.user.userId,
    type: 'campaign_launch',
    status: 'queued',
    progress: { bytesRead: 0, totalBytes: 0, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    request,
    checkpoint: { receipts: [] },
    ...(scope ? { startedBy: { actor: scope.actor, ...(scope.requestId ? { requestId: scope.requestId } : {}) } } : {}),
  };
}
