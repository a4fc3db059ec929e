import { InvalidRequest, LaunchRefused, type ProblemDetail, ServiceError } from '../../../../shared/core/errors.ts';
import { fromUnits } from '../../../../shared/core/money.ts';
import { creativeParams, socialLaunchPlan, socialLaunchSteps } from '../../../../shared/platforms/social/launch-plan.ts';
import {
  accountIneligibility,
  imagesByHash,
  launchRefusalOf,
  readLaunchAccount,
  validateObject,
  videoThumbnail,
} from '../../../../shared/platforms/social/launch.ts';
import { socialSession } from '../../../../shared/platforms/social/session.ts';
import type { SocialLaunchInput } from '../../../../shared/schemas/social-launch.ts';
import type { LaunchJobRequest } from '../../launch/launch-records.ts';
import { subscribeLeadsQuietly } from '../../leads/subscriptions.ts';
import { budgetIssues, type LaunchAnswer, type LaunchCall, type LaunchIssue, refuseIssues, startLaunchJob } from '../../launch/launch-request.ts';
import { socialLeadSource } from './lead-source.ts';

/**
 * create_campaign on the social platform (docs/decisions.md, "Launching a whole campaign" and "One
 * dry-run shape"): one read of the ad account (currency, minimum, status) and one of the ads' images,
 * then either the dry run (`validateOnly`: `{valid, issues}` with our checks and the platform's own
 * validate-only creates, nothing made) or, when nothing is wrong, the campaign_launch job, answered at
 * once. A real launch refuses what the dry run would list before anything is queued: 400 with each
 * issue's code (and minimum), or ACCOUNT_NOT_ELIGIBLE.
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
  const budget = budgetIssues(input.dailyBudget, { ...account, minimum: fromUnits(account.minimumUnits, account.decimals) });
  const hashes = [...new Set(input.ads.flatMap((ad) => (ad.imageId ? [ad.imageId] : [])))];
  const images = hashes.length > 0 ? await imagesByHash(session, adAccountId, hashes) : new Map<string, { url: string; width: number; height: number }>();
  const issues: LaunchIssue[] = [
    ...(ineligible ? [{ field: 'userId', code: 'ACCOUNT_NOT_ELIGIBLE', message: ineligible }] : []),
    ...budget.issues,
    ...input.ads.flatMap((ad, index) =>
      ad.imageId && !images.has(ad.imageId)
        ? [{ field: `ads.${index}.imageId`, code: 'MEDIA_NOT_FOUND', message: 'is not an image of the user’s ad account (upload it with upload_ad_media)' }]
        : [],
    ),
  ];
  if (!input.validateOnly) refuseIssues('The launch cannot start.', issues);
  const plan = socialLaunchPlan(input, { adAccountId, pageId, timeZone: account.timeZone, budgetUnits: budget.units ?? account.minimumUnits });

  if (input.validateOnly) {
    const check = async (field: string, step: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        const refusal = launchRefusalOf(error, step, call.user.connections.social?.scopes?.split(' '));
        if (!(refusal instanceof ServiceError) || refusal.status >= 500) throw refusal;
        const minimum = refusal.extra.minimum as LaunchIssue['minimum'];
        issues.push({ field, code: refusal.code, message: refusal.message, ...(minimum ? { minimum } : {}) });
      }
    };
    // the platform's own dry run of each create our checks let through
    if (budget.issues.length === 0) await check('name', 'campaign', () => validateObject(session, adAccountId, 'campaigns', plan.campaign));
    for (const [index, ad] of plan.ads.entries()) {
      if (issues.some((issue) => issue.field.startsWith(`ads.${index}.`))) continue;
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
    steps: socialLaunchSteps(plan),
    activate: input.activate,
    campaignName: input.name,
    ...(input.startTime ? { startMs: Date.parse(input.startTime) } : {}),
    ads: input.ads.map((ad) => {
      const image = ad.imageId ? images.get(ad.imageId) : undefined;
      return {
        headline: ad.headline,
        primaryText: ad.primaryText,
        ...(ad.videoId ? { videoId: ad.videoId } : {}),
        ...(ad.imageId && image ? { image: { id: ad.imageId, ...image } } : {}),
      };
    }),
  };
  const started = await startLaunchJob(call, request);
  // a lead launch's Page takes its leads from now on (docs/leads.md)
  if (input.leadFormId) await subscribeLeadsQuietly(call.user, socialLeadSource, call.context);
  return started;
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
