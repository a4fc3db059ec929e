import { clock } from '../../../shared/core/clock.ts';
import { checkProfessionalList, professionalListCsv } from '../../../shared/audiences/professional-list.ts';
import { PlatformTimeout, PlatformUnavailable } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { attachListUpload, createSegment, findListSegment, generateUploadUrl, uploadFile } from '../../../shared/platforms/professional/list-upload.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import type { ProfessionalCheckpoint, ProfessionalJobRequest } from '../../../shared/store/jobs.ts';
import { recordProfessionalAudience } from '../../../shared/store/professional-audiences.ts';
import type { User } from '../../../shared/store/users.ts';
import type { JobRun } from '../jobs/job-run.ts';

/**
 * Operation 8 as a job: the list checked whole, then the platform's list-upload flow
 * (docs/platforms.md, "Professional") with the rewritten file streamed from storage to the upload URL, never held
 * whole. Each step's outcome is saved, so a resumed run goes on from the step it had not finished.
 */
export async function runProfessionalAudienceJob(run: JobRun, user: User): Promise<{ audience: { csvFileId: string }; warnings?: string[] }> {
  const { job } = run;
  const request = job.request as ProfessionalJobRequest;
  const checkpoint = job.checkpoint as ProfessionalCheckpoint;
  const session = professionalSession(user, run.context);

  if (checkpoint.rows === undefined) {
    const checked = await checkProfessionalList(request.type, await run.read({ countBytes: true }), () => job.progress.rowsRead++);
    Object.assign(checkpoint, checked);
    await run.save();
  }
  if (!checkpoint.inputFile) {
    run.checkTime();
    const uploadUrl = await generateUploadUrl(session, session.adAccountId);
    checkpoint.inputFile = await uploadFile(session, uploadUrl, {
      stream: () => professionalListCsv(request.type, run.stream()),
      length: checkpoint.csvBytes ?? 0,
    });
    job.progress.rowsSent = checkpoint.rows ?? 0;
    job.progress.batchesSent = 1;
    await run.save();
  }
  if (!checkpoint.segmentId) {
    run.checkTime();
    checkpoint.segmentId = await createSegmentOnce(run, session);
    await run.save();
  }
  await attachListUpload(session, checkpoint.segmentId, checkpoint.inputFile).catch(async (error: unknown) => {
    // the failed attachment deleted the empty segment: a retry makes another
    checkpoint.segmentId = undefined;
    checkpoint.segmentCreateSentAt = undefined;
    await run.save();
    throw error;
  });
  await recordProfessionalAudience(job.tenantId, job.userId, {
    csvFileId: checkpoint.inputFile,
    segmentId: checkpoint.segmentId,
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
 * The segment made once: the create's intent is saved before it is sent, so a create whose answer was
 * lost (a timeout, a 5xx, a run that died) is read back by name and type before another is sent.
 */
async function createSegmentOnce(run: JobRun, session: ReturnType<typeof professionalSession>): Promise<string> {
  const request = run.job.request as ProfessionalJobRequest;
  const checkpoint = run.job.checkpoint as ProfessionalCheckpoint;
  const readBack = (since: number) => findListSegment(session, session.adAccountId, request.type, request.audienceName, since);
  if (checkpoint.segmentCreateSentAt !== undefined) {
    const made = await readBack(checkpoint.segmentCreateSentAt);
    if (made) return made;
  }
  checkpoint.segmentCreateSentAt = clock.now();
  await run.save();
  try {
    return await createSegment(session, session.adAccountId, request.type, request.audienceName);
  } catch (error) {
    if (!(error instanceof PlatformTimeout || error instanceof PlatformUnavailable)) {
      checkpoint.segmentCreateSentAt = undefined; // refused: nothing was made
      throw error;
    }
    const made = await readBack(checkpoint.segmentCreateSentAt);
    if (made) {
      log().warn('a segment create lost its answer; read back, the platform had made it');
      return made;
    }
    throw error; // the next run reads back again before it creates
  }
}
