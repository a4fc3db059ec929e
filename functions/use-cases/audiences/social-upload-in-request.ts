import { newSessionId, type AudienceMode } from '../../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import type { UploadedFile } from '../../../shared/schemas/uploaded-file.ts';
import { newUploadProgress, type SocialAudienceResult } from './social-audience-batches.ts';
import { runSocialAudienceJob, socialAudienceJob } from './social-audience-job.ts';
import { type InRequest, newJob, runInRequest } from './upload-in-request.ts';

/** Operation 7 with the CSV in the request's body, run by the request (upload-in-request.ts). */
export async function uploadSocialAudience(
  request: InRequest & { audienceName: string; mode: AudienceMode; audienceId?: string; csvFile: UploadedFile },
): Promise<SocialAudienceResult> {
  socialSession(request.user, request.context); // a user without a social connection is a 409 before the file is read
  const kind = { of: socialAudienceJob, run: runSocialAudienceJob };
  return runInRequest(request, 'create_social_csv_audience', request.csvFile, kind, (jobId, objectKey) =>
    newJob(jobId, request, request.csvFile, 'social_audience', {
      request: {
        objectKey,
        mode: request.mode,
        ...(request.audienceId ? { audienceId: request.audienceId } : {}),
        audienceName: request.audienceName,
      },
      checkpoint: { ...newUploadProgress(newSessionId()), localInvalid: 0, localSamples: {} },
    }),
  );
}
