import { LaunchRefused } from '../../../../shared/core/errors.ts';
import { socialCampaignControl } from '../../../../shared/platforms/social/campaign-control.ts';
import { creativeParams } from '../../../../shared/platforms/social/launch-plan.ts';
import { createObject, deleteObject, findByName, launchRefusalOf, pauseObject, videoThumbnail } from '../../../../shared/platforms/social/launch.ts';
import { socialSession } from '../../../../shared/platforms/social/session.ts';
import type { SocialLaunchPlan } from '../../../../shared/schemas/social-launch.ts';
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
 * The social platform's launch (docs/decisions.md, "Launching a whole campaign"): campaign (PAUSED,
 * holding the daily budget), ad set, then a creative and an ad per ad. Each is found again by its exact
 * name under its parent (a creative among the account's newest) and adopted only when it is what was
 * sent: the campaign's objective, budget and status, the ad set's goal and status, the ad's creative and
 * status, the creative's story.
 */

/** Waits for a video's thumbnails (it is still processing). */
const THUMBNAIL_WAIT_SECONDS = 30;
const THUMBNAIL_WAITS = 40;

const planSchema = planOf<SocialLaunchPlan>();

export const socialLaunch: LaunchScriptModule = {
  run: runSocialLaunch,
};

function runSocialLaunch(run: JobRun, job: LaunchJob, user: User): Promise<LaunchResult> {
  const plan = planSchema.parse(job.request.plan);
  const session = socialSession(user, run.context);
  const scopes = user.connections.social?.scopes?.split(' ');
  const script: LaunchScript<typeof session> = {
    platform: 'social',
    control: socialCampaignControl,
    session,
    make: (steps) => make(steps, session, plan),
    remove: (receipt) => deleteObject(session, receipt.platformId),
    leave: async (receipt) => {
      if (receipt.type !== 'creative') await pauseObject(session, receipt.platformId);
    },
    refusalOf: (error, step) => launchRefusalOf(error, step, scopes),
  };
  return runLaunch(run, job, script);
}

type Session = ReturnType<typeof socialSession>;

async function make(steps: LaunchSteps, session: Session, plan: SocialLaunchPlan): Promise<{ result: Omit<LaunchResult, 'status'>; historyAdSetId: string }> {
  const account = plan.adAccountId;
  const campaignName = String(plan.campaign.name);
  const campaignId = await steps.create('campaign', 'campaign', {
    name: campaignName,
    send: () => createObject(session, account, 'campaigns', plan.campaign),
    find: async (since) =>
      candidatesOf(
        await findByName(session, { edge: 'campaigns', adAccountId: account }, campaignName, since),
        (row) =>
          sameAsSent(row.objective, plan.campaign.objective) &&
          sameAsSent(row.daily_budget, plan.campaign.daily_budget) &&
          sameAsSent(row.status, plan.campaign.status),
      ),
  });
  const adSetName = String(plan.adSet.name);
  const adSetId = await steps.create('adset', 'adset', {
    name: adSetName,
    send: () => createObject(session, account, 'adsets', { ...plan.adSet, campaign_id: campaignId }),
    find: async (since) =>
      candidatesOf(
        await findByName(session, { edge: 'adsets', campaignId }, adSetName, since),
        (row) => sameAsSent(row.optimization_goal, plan.adSet.optimization_goal) && sameAsSent(row.status, plan.adSet.status),
      ),
  });
  const ads: LaunchResult['ads'] = [];
  for (const [index, ad] of plan.ads.entries()) {
    const { videoId } = ad.media;
    const pageId = ad.creative.story.page_id;
    const creativeId = await steps.create(`creative:${index}`, 'creative', {
      name: ad.creative.name,
      prepare: async () => {
        if (videoId) await thumbnailOf(steps, session, videoId);
      },
      send: () => createObject(session, account, 'adcreatives', creativeParams(ad.creative, videoId ? steps.checkpoint.thumbnails?.[videoId]?.url : undefined)),
      find: async (since) =>
        candidatesOf(await findByName(session, { edge: 'adcreatives', adAccountId: account }, ad.creative.name, since), (row) =>
          sameAsSent(row.object_story_spec?.page_id, pageId),
        ),
    });
    const adName = String(ad.ad.name);
    const adId = await steps.create(`ad:${index}`, 'ad', {
      name: adName,
      send: () => createObject(session, account, 'ads', { ...ad.ad, adset_id: adSetId, creative: JSON.stringify({ creative_id: creativeId }) }),
      find: async (since) =>
        candidatesOf(
          await findByName(session, { edge: 'ads', adSetId }, adName, since),
          (row) => sameAsSent(row.creative?.id, creativeId) && sameAsSent(row.status, ad.ad.status),
        ),
    });
    ads.push({ adId, creativeId });
  }
  return { result: { campaignId, adSetId, ads }, historyAdSetId: adSetId };
}

/** A video's thumbnail (read once, kept in the checkpoint): the job waits on queue delays while the video processes. */
async function thumbnailOf(steps: LaunchSteps, session: Session, videoId: string): Promise<{ url: string; width: number; height: number }> {
  const { run, checkpoint } = steps;
  const known = checkpoint.thumbnails?.[videoId];
  if (known) return known;
  const thumbnail = await pollUntil<{ url: string; width: number; height: number }, string>(run, {
    count: waitsOf(checkpoint),
    key: `thumbnail:${videoId}`,
    read: async () => {
      const found = await videoThumbnail(session, videoId);
      return found ? { done: found } : { waiting: true };
    },
    delays: [THUMBNAIL_WAIT_SECONDS],
    maxPolls: THUMBNAIL_WAITS,
    tooLong: () =>
      new LaunchRefused(
        'social',
        'MEDIA_NOT_READY',
        `The video ${videoId} was still processing after ${(THUMBNAIL_WAITS * THUMBNAIL_WAIT_SECONDS) / 60} minutes.`,
      ),
  });
  checkpoint.thumbnails = { ...checkpoint.thumbnails, [videoId]: thumbnail };
  await run.save();
  return thumbnail;
}
