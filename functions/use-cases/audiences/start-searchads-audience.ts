import { randomBytes } from 'node:crypto';
import { type Answer, answerOf, likewise } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { NotFound, ScopeMissing } from '../../../shared/core/errors.ts';
import { searchadsSession } from '../../../shared/platforms/searchads/client.ts';
import { DATA_MANAGER_SCOPE } from '../../../shared/platforms/searchads/data-manager.ts';
import type { AudienceMode, Consent } from '../../../shared/schemas/audiences.ts';
import type { UploadedFile } from '../../../shared/schemas/uploaded-file.ts';
import { deleteStagedUpload, stageUpload, stagedUploadKey } from '../../../shared/storage/staging.ts';
import { checkGoogleContactFile } from '../../../shared/audiences/google-members.ts';
import { bytesOf, checkUploadInRequest } from './check-in-request.ts';
import { findSearchadsAudience } from '../../../shared/store/searchads-audiences.ts';
import type { User } from '../../../shared/store/users.ts';
import { type JobStart, newJob, newJobId, startJob, startUploadJob } from '../jobs/start-job.ts';

/**
 * `POST /searchads/create_csv_audience` (docs/google-audiences.md): in both forms the list goes to a job
 * and the answer comes at once, `{audienceId, jobId, status}`. Before anything is stored: the user's
 * search-ads connection, the Data Manager scope it was granted, and for append, remove and replace the
 * audience it names. The file is checked whole before anything is made (a file that cannot be read is
 * a 400; a larger upload is checked by its job before it sends). A list in the request is staged in
 * storage first, as every uploaded CSV is.
 */
export interface SearchadsAudienceAsk {
  mode: AudienceMode;
  audienceId?: string;
  audienceName?: string;
  consent: Consent;
}

/** Google's list behind an audience id of ours (or a list id of the account itself), and its name. */
async function targetOf(tenantId: string, user: User, ask: SearchadsAudienceAsk): Promise<{ audienceId: string; audienceName: string; userListId?: string }> {
  if (ask.mode === 'create') return { audienceId: `aud_${randomBytes(12).toString('hex')}`, audienceName: ask.audienceName as string };
  const audienceId = ask.audienceId as string;
  if (/^\d+$/.test(audienceId)) return { audienceId, audienceName: ask.audienceName ?? audienceId, userListId: audienceId };
  const known = await findSearchadsAudience(tenantId, user.userId, audienceId);
  if (!known) throw new NotFound(`No search-ads audience ${audienceId} for this user.`);
  return { audienceId, audienceName: ask.audienceName ?? known.name, userListId: known.userListId };
}

/** The connection, and its grant of the Data Manager scope (a connection given as tokens is taken to hold it until Google refuses). */
function checkConnection(user: User, context: JobStart['context']): void {
  searchadsSession(user, context); // a user without a search-ads connection is a 409
  const granted = user.connections.searchads?.scopes?.split(/[ ,]+/);
  if (granted && !granted.includes(DATA_MANAGER_SCOPE)) throw new ScopeMissing('searchads', DATA_MANAGER_SCOPE);
}

const requestOf = (ask: SearchadsAudienceAsk, target: Awaited<ReturnType<typeof targetOf>>, objectKey: string, etag?: string) => ({
  objectKey,
  ...(etag ? { etag } : {}),
  mode: ask.mode,
  audienceId: target.audienceId,
  audienceName: target.audienceName,
  consent: ask.consent,
  ...(target.userListId ? { userListId: target.userListId } : {}),
  startedAtMs: clock.now(),
  termsAcceptedAt: new Date(clock.now()).toISOString(),
});

/** A list uploaded first (`uploadId`): one job per upload, whatever the Idempotency-Key. */
export async function startSearchadsAudienceJob(
  start: JobStart & SearchadsAudienceAsk,
): Promise<Answer<{ audienceId: string; jobId: string; status: string }>> {
  checkConnection(start.user, start.context);
  const target = await targetOf(start.tenantId, start.user, start);
  const started = await startUploadJob(start, async (jobId, upload) => {
    await checkUploadInRequest(upload, async (open) => checkGoogleContactFile(await open()));
    return {
      job: newJob(jobId, start, upload, 'searchads_audience', 'queued', { request: requestOf(start, target, upload.objectKey, upload.etag), checkpoint: {} }),
      about: { audienceId: target.audienceId },
    };
  });
  const job = answerOf(started);
  return likewise(started, { audienceId: String((job.request as { audienceId: string }).audienceId), jobId: job.jobId, status: job.status });
}

/** A list in the request's body: staged, then the same job. */
export async function startSearchadsAudienceFromFile(
  start: Omit<JobStart, 'uploadId'> & SearchadsAudienceAsk & { csvFile: UploadedFile },
): Promise<{ audienceId: string; jobId: string; status: string }> {
  checkConnection(start.user, start.context);
  await checkGoogleContactFile(bytesOf(start.csvFile.content)); // a file that cannot be read: 400, nothing staged or made
  const target = await targetOf(start.tenantId, start.user, start);
  const jobId = newJobId();
  const objectKey = stagedUploadKey(start.tenantId, start.user.userId, jobId);
  await stageUpload(objectKey, start.csvFile.content);
  try {
    const started = await startJob(
      start,
      { type: 'searchads_audience', request: requestOf(start, target, objectKey), checkpoint: { checked: true } },
      jobId,
      start.csvFile.content.length,
    );
    return { audienceId: target.audienceId, ...started };
  } catch (error) {
    await deleteStagedUpload(objectKey).catch(() => undefined); // no job holds the file: it goes with the request
    throw error;
  }
}
