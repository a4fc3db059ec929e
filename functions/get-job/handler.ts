import { NotFound } from '../../shared/core/errors.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { getJobRequest } from './schema.ts';
import { findJob } from '../../shared/store/jobs.ts';
import { viewOf } from '../use-cases/jobs/job-views.ts';
import { declaration } from './declaration.ts';

/** POST /jobs/get_job: a job's status and live progress (an audience, a video, a launch); another tenant's job is as unknown as a missing one. */
export const handler = defineOperation({
  declaration,
  request: getJobRequest,
  user: false,
  run: async ({ input, tenantId }) => {
    const job = await findJob(tenantId, input.jobId);
    if (!job || job.runsInRequest) throw new NotFound(`No job ${input.jobId}.`);
    return { job: viewOf(job) };
  },
});
