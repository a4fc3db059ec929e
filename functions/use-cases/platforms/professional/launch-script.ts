import { clock } from '../../../../shared/core/clock.ts';
import { LaunchRefused, PlatformRateLimited } from '../../../../shared/core/errors.ts';
import { professionalCampaignControl } from '../../../../shared/platforms/professional/campaign-control.ts';
import {
  createInlineCreative,
  createLaunchObject,
  findCampaigns,
  findCreatives,
  findGroups,
  type LaunchObjectKind,
  launchMediaStatus,
  launchRefusalOf,
  leaveLaunchObject,
  removeLaunchObject,
} from '../../../../shared/platforms/professional/launch.ts';
import { professionalSession } from '../../../../shared/platforms/professional/session.ts';
import type { ProfessionalLaunchPlan } from '../../../../shared/schemas/professional-launch.ts';
import { pollUntil } from '../../jobs/steps.ts';
import {
  candidatesOf,
  type LaunchResult,
  type LaunchScript,
  type LaunchScriptModule,
  type LaunchSteps,
  runLaunch,
  sameAsSent,
} from '../../launch/launch-engine.ts';
import { type LaunchJob, planOf, waitsOf } from '../../launch/launch-records.ts';
import type { JobRun } from '../../jobs/job-run.ts';
import type { User } from '../../../../shared/store/users.ts';

/**
 * The professional network's launch (docs/decisions.md, "Launching a whole campaign (professional)"):
 * campaign group, campaign, then a creative with its post per ad, every one DRAFT (the only state a
 * plain DELETE removes) until the activation. Each is found again by its exact name under its parent.
 * The platform names no wait when it throttles: a parked launch waits 60 s, doubling up to an hour (or
 * less, until the platform's daily quotas reset at midnight UTC, or a Retry-After it sends).
 */

/** Waits for an image or video the platform is still processing. */
const MEDIA_WAIT_SECONDS = 30;
const MEDIA_WAITS = 40;
const FIRST_PARK_SECONDS = 60;
const LONGEST_PARK_SECONDS = 3600;

type Session = ReturnType<typeof professionalSession>;
const planSchema = planOf<ProfessionalLaunchPlan>();

export const professionalLaunch: LaunchScriptModule = {
  run: runProfessionalLaunch,
};

async function runProfessionalLaunch(run: JobRun, job: LaunchJob, user: User): Promise<LaunchResult> {
  const plan = planSchema.parse(job.request.plan);
  const session = professionalSession(user, run.context);
  const scopes = user.connections.professional?.scopes?.split(/[ ,]+/);
  const { adAccountId } = plan;
  const script: LaunchScript<Session> = {
    platform: 'professional',
    control: professionalCampaignControl,
    session,
    make: (steps) => make(steps, session, plan),
    remove: (receipt) => removeLaunchObject(session, adAccountId, receipt.type as LaunchObjectKind, receipt.platformId),
    leave: (receipt) => leaveLaunchObject(session, adAccountId, receipt.type as LaunchObjectKind, receipt.platformId),
    refusalOf: (error, step) => launchRefusalOf(error, step, scopes),
  };
  try {
    return await runLaunch(run, job, script);
  } catch (error) {
    if (!(error instanceof PlatformRateLimited)) throw error;
    const { checkpoint } = job;
    checkpoint.parks = (checkpoint.parks ?? 0) + 1;
    await run.save();
    // our backoff, or sooner when the platform's quota resets sooner (or it names a wait)
    const backoff = Math.min(LONGEST_PARK_SECONDS, FIRST_PARK_SECONDS * 2 ** (checkpoint.parks - 1));
    throw new PlatformRateLimited('professional', Math.min(backoff, error.retryAfterSeconds), error);
  }
}

async function make(
  steps: LaunchSteps,
  session: Session,
  plan: ProfessionalLaunchPlan,
): Promise<{ result: Omit<LaunchResult, 'status'>; historyAdSetId: string }> {
  const account = plan.adAccountId;
  // no start asked: when the object is made (the platform refuses a start in the past)
  const schedule = () => ({ start: Math.max(plan.startMs ?? 0, clock.now()), ...(plan.endMs ? { end: plan.endMs } : {}) });
  const groupName = String(plan.group.name);
  const groupId = await steps.create('group', 'campaign_group', {
    name: groupName,
    send: () => createLaunchObject(session, account, 'adCampaignGroups', { ...plan.group, runSchedule: { start: schedule().start } }),
    find: async (since) => candidatesOf(await findGroups(session, account, groupName, since), (row) => sameAsSent(row.status, plan.group.status)),
  });
  const campaignName = String(plan.campaign.name);
  const budget = plan.campaign.dailyBudget as { amount: string; currencyCode: string };
  const campaignId = await steps.create('campaign', 'campaign', {
    name: campaignName,
    send: () =>
      createLaunchObject(session, account, 'adCampaigns', {
        ...plan.campaign,
        campaignGroup: `urn:li:sponsoredCampaignGroup:${groupId}`,
        runSchedule: schedule(),
      }),
    find: async (since) =>
      candidatesOf(
        await findCampaigns(session, account, groupId, campaignName, since),
        (row) =>
          sameAsSent(row.objectiveType, plan.campaign.objectiveType) &&
          sameAsSent(row.status, plan.campaign.status) &&
          sameAsSent(row.dailyBudget?.currencyCode, budget.currencyCode) &&
          Number(row.dailyBudget?.amount) === Number(budget.amount),
      ),
  });
  const ads: LaunchResult['ads'] = [];
  for (const [index, { name, media, creative }] of plan.creatives.entries()) {
    const creativeId = await steps.create(`creative:${index}`, 'creative', {
      name,
      prepare: () => mediaReady(steps, session, plan, media),
      send: () => createInlineCreative(session, account, { ...creative, campaign: `urn:li:sponsoredCampaign:${campaignId}` }),
      find: async (since) =>
        candidatesOf(await findCreatives(session, account, campaignId, name, since), (row) => sameAsSent(row.intendedStatus, creative.intendedStatus)).map(
          (candidate) => ({ ...candidate, id: urnOf(candidate.id) }),
        ),
    });
    ads.push({ adId: creativeId, creativeId });
  }
  return { result: { campaignId, campaignGroupId: groupId, ads }, historyAdSetId: campaignId };
}

/** A creative's id is its URN wherever it is named. */
const urnOf = (id: string | number) => (String(id).startsWith('urn:') ? String(id) : `urn:li:sponsoredCreative:${id}`);

/** Media the request found still processing: the job waits (queue delays) until the platform has it, or it fails. */
async function mediaReady(steps: LaunchSteps, session: Session, plan: ProfessionalLaunchPlan, urn: string): Promise<void> {
  const { run, checkpoint } = steps;
  if (!(plan.mediaToWaitFor ?? []).includes(urn) || checkpoint.mediaReady?.includes(urn)) return;
  await pollUntil(run, {
    count: waitsOf(checkpoint),
    key: `media:${urn}`,
    read: async () => {
      const status = await launchMediaStatus(session, urn);
      if (status === 'PROCESSING_FAILED') throw new LaunchRefused('professional', 'MEDIA_PROCESSING_FAILED', `The platform could not process ${urn}.`);
      return status === 'AVAILABLE' ? { done: true } : { waiting: true };
    },
    delays: [MEDIA_WAIT_SECONDS],
    maxPolls: MEDIA_WAITS,
    tooLong: () =>
      new LaunchRefused('professional', 'MEDIA_NOT_READY', `${urn} was still processing after ${(MEDIA_WAITS * MEDIA_WAIT_SECONDS) / 60} minutes.`),
  });
  checkpoint.mediaReady = [...(checkpoint.mediaReady ?? []), urn];
  await run.save();
}
