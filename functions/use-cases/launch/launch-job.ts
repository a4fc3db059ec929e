import * as z from 'zod';
import { releaseLaunchName } from '../../../shared/store/launch-claims.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { launchLeftovers, type LaunchScriptModule } from './launch-engine.ts';
import { launchCheckpointSchema, type LaunchJob, launchJobRequestSchema } from './launch-records.ts';
import { launchNameOf } from './launch-request.ts';
import { professionalLaunch } from '../platforms/professional/launch-script.ts';
import { socialLaunch } from '../platforms/social/launch-script.ts';

/**
 * The campaign_launch job (docs/decisions.md, "Launching a whole campaign"): the engine
 * (launch-engine.ts) makes each object exactly once, records the history, activates and undoes; what a
 * platform makes, and how, is its script, found here by the request's platform.
 */

/** Every platform a whole campaign can be launched on: its script. A new platform is one script module and one line here. */
const LAUNCH_SCRIPTS: Partial<Record<LaunchJob['request']['platform'], LaunchScriptModule>> = {
  social: socialLaunch,
  professional: professionalLaunch,
};

function scriptOf({ request }: LaunchJob): LaunchScriptModule {
  const script = LAUNCH_SCRIPTS[request.platform];
  if (!script) throw new Error(`whole campaigns are not launched on ${request.platform}`);
  return script;
}

const launchedSchema = z.object({ status: z.string(), ads: z.array(z.unknown()) });

export const campaignLaunchJob = defineJobKind({
  type: 'campaign_launch',
  request: launchJobRequestSchema,
  checkpoint: launchCheckpointSchema,
  platformOf: (request) => request.platform,
  run: (run, job, user) => scriptOf(job).run(run, job, user),
  endEvents: { succeeded: 'campaign_launch.succeeded', failed: 'campaign_launch.failed' },
  endAudit: (job) => {
    const campaign = job.checkpoint.receipts.find((receipt) => receipt.step === 'campaign');
    const launched = launchedSchema.safeParse(job.result);
    const result = job.status === 'succeeded' && launched.success ? launched.data : undefined;
    return {
      action: job.status === 'succeeded' ? 'campaign.launched' : 'campaign.launch_failed',
      target: { type: 'campaign', id: campaign?.platformId ?? job.jobId },
      platform: job.request.platform,
      changes: {
        job: { to: job.jobId },
        name: { to: job.request.campaignName },
        ...(result
          ? { status: { to: result.status }, ads: { to: result.ads.length } }
          : { rolledBack: { to: job.rolledBack }, orphans: { to: job.orphans?.length ?? 0 } }),
      },
    };
  },
  // the launch's name is free again (a crash before this leaves it to the next launch of the name, which finds this job ended)
  afterEnd: (job) => releaseLaunchName(launchNameOf(job.request), job.jobId).catch(() => undefined),
  // its grant is gone, or its undo was given up: what it made stays, listed
  leftovers: (job) => {
    const orphans = launchLeftovers(job.checkpoint);
    return { rolledBack: orphans.length === 0, orphans };
  },
  // given up by the queue: undone first (all or nothing), as a refusal would undo it
  abandon: async (run, job, user, failure) => {
    job.checkpoint.failure ??= failure;
    await run.save();
    await scriptOf(job).run(run, job, user); // with a failure stored, the run undoes and ends
  },
});
