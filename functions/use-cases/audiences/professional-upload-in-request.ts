import { defaultAudienceName, type ListType } from '../../../shared/audiences/professional-list.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import type { UploadedFile } from '../../../shared/schemas/uploaded-file.ts';
import { professionalAudienceJob, runProfessionalAudienceJob } from './professional-audience-job.ts';
import { type InRequest, newJob, runInRequest } from './upload-in-request.ts';

/** Operation 8 with the CSV in the request's body, run by the request (upload-in-request.ts). */
export async function uploadProfessionalAudience(
  request: InRequest & { type: ListType; audienceName?: string; csv: UploadedFile },
): Promise<{ audience: { csvFileId: string }; warnings?: string[] }> {
  professionalSession(request.user, request.context); // a user without a professional connection is a 409
  const kind = { of: professionalAudienceJob, run: runProfessionalAudienceJob };
  return runInRequest(request, 'create_professional_csv_audience', request.csv, kind, (jobId, objectKey) =>
    newJob(jobId, request, request.csv, 'professional_audience', {
      request: { objectKey, type: request.type, audienceName: request.audienceName ?? defaultAudienceName(request.type) },
      checkpoint: {},
    }),
  );
}
