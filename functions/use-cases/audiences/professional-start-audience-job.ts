import { checkProfessionalList, defaultAudienceName, type ListType } from '../../../shared/audiences/professional-list.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { type Answer, answerOf, likewise } from '../../../shared/core/audit.ts';
import type { JobStatus } from '../../../shared/store/jobs.ts';
import { etagOf, type JobStart, newJob, startUploadJob } from '../jobs/start-job.ts';
import { checkUploadInRequest } from './check-in-request.ts';

/** Operation 8 given an `uploadId` (social-start-audience-job.ts tells the flow): the job is stored and queued. */
export async function startProfessionalAudienceJob(
  start: JobStart & { type: ListType; audienceName?: string },
): Promise<Answer<{ jobId: string; status: JobStatus }>> {
  professionalSession(start.user, start.context); // a user without a professional connection is a 409
  const started = await startUploadJob(start, async (jobId, upload) => {
    await checkUploadInRequest(upload, async (open) => checkProfessionalList(start.type, await open()));
    return {
      job: newJob(jobId, start, upload, 'professional_audience', 'queued', {
        request: { objectKey: upload.objectKey, ...etagOf(upload), type: start.type, audienceName: start.audienceName ?? defaultAudienceName(start.type) },
        checkpoint: {},
      }),
    };
  });
  const job = answerOf(started);
  return likewise(started, { jobId: job.jobId, status: job.status });
}
