import { InvalidRequest, LaunchRefused } from '../../../../shared/core/errors.ts';
import { clock } from '../../../../shared/core/clock.ts';
import { fromUnits } from '../../../../shared/core/money.ts';
import { checkOrganizationScope } from '../../../../shared/platforms/professional/media.ts';
import { professionalLaunchPlan, professionalLaunchSteps } from '../../../../shared/platforms/professional/launch-plan.ts';
import {
  accountIneligibility,
  type LaunchMedia,
  MINIMUM_DAILY_BUDGET,
  readLaunchAccount,
  readLaunchMedia,
} from '../../../../shared/platforms/professional/launch.ts';
import { professionalSession } from '../../../../shared/platforms/professional/session.ts';
import type { ProfessionalLaunchInput } from '../../../../shared/schemas/professional-launch.ts';
import type { LaunchJobRequest } from '../../launch/launch-records.ts';
import { subscribeLeadsQuietly } from '../../leads/subscriptions.ts';
import { budgetIssues, type LaunchAnswer, type LaunchCall, type LaunchIssue, refuseIssues, startLaunchJob } from '../../launch/launch-request.ts';
import { professionalLeadSource } from './lead-source.ts';

/**
 * create_campaign on the professional network (docs/decisions.md, "Launching a whole campaign
 * (professional)" and "One dry-run shape"): one read of the ad account (currency, status, holds, its
 * organization) and one of each of the ads' media, then either `validateOnly` (our checks: the platform
 * has no dry run) or, when nothing is wrong, the campaign_launch job. A real launch refuses what the dry
 * run would list before anything is queued: 400 with each issue's code (and minimum), or ACCOUNT_NOT_ELIGIBLE.
 */
export async function launchProfessionalCampaign(call: LaunchCall<ProfessionalLaunchInput>): Promise<LaunchAnswer> {
  const { input } = call;
  checkOrganizationScope(call.user.connections.professional?.scopes);
  const session = professionalSession(call.user, call.context);
  const adAccountId = session.adAccountId;
  if (input.startTime && Date.parse(input.startTime) < clock.now())
    throw new InvalidRequest('startTime is in the past; the platform schedules campaigns from now on.', [
      { path: 'startTime', message: 'must not be in the past' },
    ]);
  const account = await readLaunchAccount(session, adAccountId);
  const ineligible = accountIneligibility(account);
  if (ineligible && !input.validateOnly) throw new LaunchRefused('professional', 'ACCOUNT_NOT_ELIGIBLE', ineligible);
  const author = input.organizationId ? `urn:li:organization:${input.organizationId}` : account.organization;
  if (!author)
    throw new InvalidRequest('The ad account advertises for no organization: send organizationId (the posts’ author).', [
      { path: 'organizationId', message: 'is required: the ad account names no organization' },
    ]);
  const minimum = MINIMUM_DAILY_BUDGET[account.currency];
  const budget = budgetIssues(input.dailyBudget, { ...account, ...(minimum ? { minimum } : {}) });
  const media = await readLaunchMedia(session, [...new Set(input.ads.map((ad) => (ad.imageId ?? ad.videoId) as string))]);
  const issues: LaunchIssue[] = [
    ...(ineligible ? [{ field: 'userId', code: 'ACCOUNT_NOT_ELIGIBLE', message: ineligible }] : []),
    ...budget.issues,
    ...mediaIssues(input, media, author),
  ];
  if (!input.validateOnly) refuseIssues('The launch cannot start.', issues);
  const units = budget.units ?? 0n;
  const plan = professionalLaunchPlan(input, { adAccountId, author, currency: account.currency, budget: fromUnits(units, account.decimals) });
  const waiting = [...media].filter(([, item]) => item.status !== 'AVAILABLE').map(([urn]) => urn);
  if (waiting.length > 0) plan.mediaToWaitFor = waiting;

  if (input.validateOnly) {
    input.ads.forEach((ad, index) => {
      const urn = (ad.imageId ?? ad.videoId) as string;
      const field = `ads.${index}.${ad.imageId ? 'imageId' : 'videoId'}`;
      const status = media.get(urn)?.status;
      if (status && status !== 'AVAILABLE' && status !== 'PROCESSING_FAILED' && !issues.some((issue) => issue.field === field))
        issues.push({ field, code: 'MEDIA_NOT_READY', message: `${urn} is still processing; a launch waits for it.` });
    });
    return { valid: issues.length === 0, issues, checkedBy: 'service' };
  }
  const request: LaunchJobRequest = {
    platform: 'professional',
    plan,
    steps: professionalLaunchSteps(plan),
    activate: input.activate,
    campaignName: input.name,
    ...(input.startTime ? { startMs: Date.parse(input.startTime) } : {}),
    ads: input.ads.map((ad) => {
      const url = ad.imageId ? media.get(ad.imageId)?.url : undefined;
      return { headline: ad.headline, primaryText: ad.commentary, ...(ad.imageId && url ? { image: { id: ad.imageId, url, width: 0, height: 0 } } : {}) };
    }),
  };
  const started = await startLaunchJob(call, request);
  // a lead launch's ad account takes its leads from now on (docs/leads.md)
  if (input.objective === 'LEAD_GENERATION') await subscribeLeadsQuietly(call.user, professionalLeadSource, call.context);
  return started;
}

/**
 * What the ads' media forbid (one read each, all at once): one the platform does not know or another
 * organization owns (the post's author must own its media) is MEDIA_NOT_FOUND; one it could not process
 * MEDIA_PROCESSING_FAILED. One still processing is waited for by the job.
 */
function mediaIssues(input: ProfessionalLaunchInput, media: Map<string, LaunchMedia>, author: string): LaunchIssue[] {
  return input.ads.flatMap((ad, index) => {
    const field = `ads.${index}.${ad.imageId ? 'imageId' : 'videoId'}`;
    const item = media.get((ad.imageId ?? ad.videoId) as string);
    if (!item) return [{ field, code: 'MEDIA_NOT_FOUND', message: 'is not media the platform knows (upload it with upload_ad_media)' }];
    if (item.owner && item.owner !== author)
      return [{ field, code: 'MEDIA_NOT_FOUND', message: `is owned by ${item.owner}, not by the posts’ author ${author}` }];
    if (item.status === 'PROCESSING_FAILED')
      return [{ field, code: 'MEDIA_PROCESSING_FAILED', message: 'could not be processed by the platform; upload it again' }];
    return [];
  });
}
