import { clock } from '../../shared/core/clock.ts';
import { checkProfessionalList, professionalListCsv } from '../../shared/audiences/professional-list.ts';
import { attachListUpload, createSegment, generateUploadUrl, uploadFile } from '../../shared/platforms/professional/list-upload.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import type { ProfessionalCheckpoint, ProfessionalJobRequest } from '../../shared/store/audience-jobs.ts';
import { recordProfessionalAudience } from '../../shared/store/professional-audiences.ts';
import type { User } from '../../shared/store/users.ts';
import type { JobRun } from './audience-job-run.ts';

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
    checkpoint.segmentId = await createSegment(session, session.adAccountId, request.type, request.audienceName);
    await run.save();
  }
  await attachListUpload(session, checkpoint.segmentId, checkpoint.inputFile).catch(async (error: unknown) => {
    checkpoint.segmentId = undefined; // the failed attachment deleted the empty segment: a retry makes another
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
