import { clock } from '../../../shared/core/clock.ts';
import { checkProfessionalList, professionalListCsv } from '../../../shared/audiences/professional-list.ts';
import { attachListUpload, createSegment, findListSegment, generateUploadUrl, uploadFile } from '../../../shared/platforms/professional/list-upload.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import * as z from 'zod';
import { listTypeSchema } from '../../../shared/schemas/audiences.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import { recordProfessionalAudience } from '../../../shared/store/professional-audiences.ts';
import type { User } from '../../../shared/store/users.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { dropContacts } from './contacts-kept.ts';
import type { JobRun } from '../jobs/job-run.ts';
import { readJobFile, streamJobFile } from '../jobs/job-files.ts';
import { checkpointCreateStore, createOnce } from '../jobs/steps.ts';

/**
 * Operation 8 as a job: the list checked whole, then the platform's list-upload flow
 * (docs/platforms.md, "Professional") with the rewritten file streamed from storage to the upload URL, never held
 * whole. Each step's outcome is saved, so a resumed run goes on from the step it had not finished.
 */
export const professionalJobRequestSchema = z.object({
  objectKey: z.string(),
  etag: z.string().optional(),
  type: listTypeSchema,
  audienceName: z.string(),
});
export type ProfessionalJobRequest = z.infer<typeof professionalJobRequestSchema>;

export const professionalCheckpointSchema = z.object({
  rows: z.number().optional(),
  warnings: z.array(z.string()).optional(),
  csvBytes: z.number().optional(),
  /** the uploaded file's media URN, once the platform has it */
  inputFile: z.string().optional(),
  /** when a segment create was sent (epoch ms): a run that finds it with no segmentId reads back before creating */
  segmentCreateSentAt: z.number().optional(),
  segmentId: z.string().optional(),
});
type ProfessionalCheckpoint = z.infer<typeof professionalCheckpointSchema>;
type ProfessionalAudienceJob = Job<ProfessionalJobRequest, ProfessionalCheckpoint>;

export const professionalAudienceJob = defineJobKind({
  type: 'professional_audience',
  request: professionalJobRequestSchema,
  checkpoint: professionalCheckpointSchema,
  platformOf: () => 'professional',
  run: runProfessionalAudienceJob,
  endEvents: { succeeded: 'audience_job.succeeded', failed: 'audience_job.failed' },
  endAudit: (job) => {
    const audience = z.object({ audience: z.object({ csvFileId: z.string() }) }).safeParse(job.result);
    return {
      action: 'audience.created',
      target: { type: 'audience', id: (audience.success ? audience.data.audience.csvFileId : job.checkpoint.inputFile) ?? job.jobId },
      platform: 'professional',
      changes: { job: { to: job.jobId }, rows: { to: job.progress.rowsSent } },
    };
  },
  afterEnd: dropContacts,
});

export async function runProfessionalAudienceJob(
  run: JobRun,
  job: ProfessionalAudienceJob,
  user: User,
): Promise<{ audience: { csvFileId: string }; warnings?: string[] }> {
  const { request, checkpoint } = job;
  const session = professionalSession(user, run.context);

  if (checkpoint.rows === undefined) {
    const checked = await checkProfessionalList(request.type, await readJobFile(run, request, { countBytes: true }), () => job.progress.rowsRead++);
    Object.assign(checkpoint, checked);
    await run.save();
  }
  if (!checkpoint.inputFile) {
    run.checkTime();
    const uploadUrl = await generateUploadUrl(session, session.adAccountId);
    checkpoint.inputFile = await uploadFile(session, uploadUrl, {
      stream: () => professionalListCsv(request.type, streamJobFile(run, request)),
      length: checkpoint.csvBytes ?? 0,
    });
    job.progress.rowsSent = checkpoint.rows ?? 0;
    job.progress.batchesSent = 1;
    await run.save();
  }
  run.checkTime();
  const segmentId = await createSegmentOnce(run, job, session);
  await attachListUpload(session, segmentId, checkpoint.inputFile).catch(async (error: unknown) => {
    // the failed attachment deleted the empty segment: a retry makes another
    checkpoint.segmentId = undefined;
    checkpoint.segmentCreateSentAt = undefined;
    await run.save();
    throw error;
  });
  await recordProfessionalAudience(job.tenantId, job.userId, {
    csvFileId: checkpoint.inputFile,
    segmentId,
    account: `urn:li:sponsoredAccount:${session.adAccountId}`,
    type: request.type,
    name: request.audienceName,
    rows: checkpoint.rows ?? 0,
    createdAt: clock.date().toISOString(),
  });
  const warnings = checkpoint.warnings ?? [];
  return { audience: { csvFileId: checkpoint.inputFile }, ...(warnings.length > 0 ? { warnings } : {}) };
}

/**
 * The segment made once (a create-once step): its intent is saved before it is sent, so a create whose
 * answer was lost (a timeout, a 5xx, a run that died) is read back by name and type before another is sent.
 */
function createSegmentOnce(run: JobRun, { request, checkpoint }: ProfessionalAudienceJob, session: ReturnType<typeof professionalSession>): Promise<string> {
  const store = checkpointCreateStore(run, checkpoint, { sentAt: 'segmentCreateSentAt', id: 'segmentId' });
  return createOnce({
    store,
    key: 'segment',
    send: () => createSegment(session, session.adAccountId, request.type, request.audienceName),
    readBack: (since) => findListSegment(session, session.adAccountId, request.type, request.audienceName, since),
  });
}
