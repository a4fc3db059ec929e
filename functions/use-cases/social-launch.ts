import { InvalidRequest, LaunchRefused, type ProblemDetail, ServiceError } from '../../shared/core/errors.ts';
import { fromUnits } from '../../shared/core/money.ts';
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
import type { LaunchJobRequest } from '../../shared/store/audience-jobs.ts';
import { dailyBudgetIn, type LaunchAnswer, type LaunchCall, type LaunchIssue, startLaunchJob } from './launch-request.ts';

/**
 * create_campaign on the social platform (docs/decisions.md, "Launching a whole campaign"): one read
 * of the ad account (currency, minimum, status) and one of the ads' images, every refusal we can
 * tell from those before anything is queued (400), then either the platform's own dry run
 * (`validateOnly`: `{valid, issues}`, nothing made) or the campaign_launch job, answered at once.
 */
export async function launchSocialCampaign(call: LaunchCall<SocialLaunchInput>): Promise<LaunchAnswer> {
  const session = socialSession(call.user, call.context);
  const adAccountId = session.connection.adAccountId;
  const input = withImageHashes(call.input, adAccountId);
  const pageId = input.pageId ?? session.connection.pageId;
  if (!pageId)
    throw new InvalidRequest('The ads need a Page to run as: send pageId (the user’s connection names none).', [
      { path: 'pageId', message: 'is required: the connection names no Page' },
    ]);
  const account = await readLaunchAccount(session, adAccountId);
  const ineligible = accountIneligibility(account);
  if (ineligible && !input.validateOnly) throw new LaunchRefused('social', 'ACCOUNT_NOT_ELIGIBLE', ineligible);
  const budgetUnits = dailyBudgetIn(input.dailyBudget, { ...account, minimum: fromUnits(account.minimumUnits, account.decimals) });
  const images = await imagesOf(session, adAccountId, input);
  const plan = socialLaunchPlan(input, { adAccountId, pageId, timeZone: account.timeZone, budgetUnits });

  if (input.validateOnly) {
    call.audit.nothingWritten();
    const issues: LaunchIssue[] = [];
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
      ...(ad.videoId ? { videoId: ad.videoId } : {}),
      ...(ad.imageId && images.get(ad.imageId)
        ? { image: { id: ad.imageId, ...(images.get(ad.imageId) as { url: string; width: number; height: number }) } }
        : {}),
    })),
  };
  return startLaunchJob(call, request);
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

/**
 * The ads' images by hash: an image id as get_ad_account_media lists it (`<ad account id>:<hash>`) is
 * taken when its account is the user's connected one; another account's is refused (400, nothing read).
 */
function withImageHashes(input: SocialLaunchInput, adAccountId: string): SocialLaunchInput {
  const elsewhere: ProblemDetail[] = [];
  const ads = input.ads.map((ad, index) => {
    const [account, hash] = ad.imageId?.includes(':') ? (ad.imageId.split(':') as [string, string]) : [undefined, ad.imageId];
    if (account !== undefined && account !== adAccountId)
      elsewhere.push({ path: `ads.${index}.imageId`, message: `is an image of ad account ${account}, not of the user’s connected ad account` });
    return hash === ad.imageId ? ad : { ...ad, imageId: hash };
  });
  if (elsewhere.length > 0) throw new InvalidRequest('Some ads name images of another ad account.', elsewhere);
  return { ...input, ads };
}
