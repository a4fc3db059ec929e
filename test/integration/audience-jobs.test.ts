import { randomBytes } from 'node:crypto';
import { LOST_ANSWER_DELAY_MS } from '../helpers/timing.ts';
import { parse } from 'csv-parse/sync';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../functions/use-cases/jobs/run-job.ts';
import { handler as sweepJobs } from '../../functions/workers/sweep-jobs/handler.ts';
import { createJob } from '../../shared/store/job-writes.ts';
import type { SocialCheckpoint } from '../../functions/use-cases/audiences/social-audience-job.ts';
import { contactLayout } from '../../shared/audiences/contact-rows.ts';
import { newUploadProgress } from '../../functions/use-cases/audiences/social-audience-batches.ts';
import { findCompletedUpload } from '../../shared/uploads/direct-uploads.ts';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { sha256Hex } from '../../shared/audiences/normalize.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { call, newTenant, newUser, upload } from '../helpers/api.ts';
import { contactsCsv } from '../helpers/contacts.ts';
import { eventually } from '../helpers/eventually.ts';
import { injectFault, stackNow, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { newSocialUser } from '../helpers/social.ts';
import { createUpload, getJob, jobToEnd, uploaded } from '../helpers/uploads.ts';

/**
 * Lists of any size (docs/decisions.md "Uploads and audience jobs") through the shared stack: create_upload,
 * the PUT to the local S3, operations 7 and 8 with the uploadId, the queue-driven worker against the
 * sandboxes, get_job and the webhooks. The crash, the dead-letter path and the URL's expiry are in
 * audience-jobs-process.test.ts, on a stack of their own.
 */
let apiKey = '';
let tenantId = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/jobs` } }, { apiKey });
});
afterAll(() => receiver.close());

const SOCIAL = '/social/create_social_csv_audience';
const PROFESSIONAL = '/professional/create_csv_audience';
const PROFESSIONAL_ACCOUNT = DEMO_CONNECTIONS.professional.adAccountId;
const bodies = (requests: Array<{ body: string }>) => requests.map((request) => JSON.parse(request.body));
const eventsOf = (jobId: string) => webhookEvents(receiver.received).filter((event) => event.data?.jobId === jobId);

async function storedObjects(): Promise<string[]> {
  const listed = await new S3Client({ forcePathStyle: true }).send(
    new ListObjectsV2Command({ Bucket: process.env.UPLOAD_BUCKET, Prefix: `uploads/${tenantId}/` }),
  );
  return (listed.Contents ?? []).map((object) => object.Key as string);
}

/** An audience of the user's, made with a one-row multipart upload; the requests it took are left behind `skip`. */
async function existingAudience(userId: string): Promise<{ audienceId: string; skip: number }> {
  const created = await upload(SOCIAL, { userId, audienceName: 'Base' }, { field: 'csvFile', content: 'email\nbase@example.com\n' }, { apiKey });
  return { audienceId: created.body.results.audienceId as string, skip: 2 };
}

/** The job operation 7 stores for mode append, stored here without its message (a test runs or loses it). */
async function storedSocialJob(
  userId: string,
  uploadId: string,
  audienceId: string,
  options: { sessionId: number; at: string; checkpoint?: Partial<SocialCheckpoint> },
): Promise<string> {
  const upload = await findCompletedUpload(tenantId, userId, uploadId);
  const jobId = `job_${randomBytes(16).toString('hex')}`;
  await createJob(
    {
      jobId,
      tenantId,
      userId,
      type: 'social_audience',
      status: 'running',
      progress: { bytesRead: 0, totalBytes: upload.contentLength, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
      createdAt: options.at,
      updatedAt: options.at,
      request: { objectKey: upload.objectKey, mode: 'append', audienceId, audienceName: 'Stored' },
      checkpoint: { ...newUploadProgress(options.sessionId), localInvalid: 0, localSamples: {}, ...options.checkpoint },
    },
    undefined,
  );
  return jobId;
}

async function professionalUser(): Promise<{ userId: string; token: string }> {
  const token = `AQVjobs${randomBytes(10).toString('hex')}`;
  return { userId: await newUser(apiKey, { professional: { accessToken: token, adAccountId: PROFESSIONAL_ACCOUNT } }), token };
}

function professionalContacts(rows: number): string {
  const lines = ['email,firstname,lastname,country'];
  for (let index = 0; index < rows; index++) lines.push(`member${index}@example.com,Ann,Lee,us`);
  return `${lines.join('\n')}\n`;
}

describe('create_upload', () => {
  it('answers a presigned PUT of exactly contentLength bytes under the tenant’s and user’s prefix, for 15 minutes', async () => {
    const { userId } = await newSocialUser(apiKey);
    const response = await call('/uploads/create_upload', { userId, fileName: 'subscribers.csv', contentLength: 1234 }, { apiKey });
    expect(response.status).toBe(200);
    const ticket = response.body.results;
    expect(ticket).toEqual({
      success: true,
      uploadId: expect.stringMatching(/^upl_[0-9a-f]{32}$/),
      url: expect.any(String),
      method: 'PUT',
      headers: { 'content-type': 'text/csv', 'content-length': '1234' },
      expiresAt: expect.any(String),
    });
    const url = new URL(ticket.url);
    expect(url.pathname).toBe(`/${process.env.UPLOAD_BUCKET}/uploads/${tenantId}/${userId}/${ticket.uploadId}.csv`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    // 15 minutes on the stack's clock (which runs ahead of the real one by the retry waits it skipped)
    const minutes = (Date.parse(ticket.expiresAt) - (await stackNow())) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it.each([
    [{ contentLength: 1024 ** 3 + 1 }, 'contentLength', 'must be at most 1073741824 bytes (1 GiB) for a contact list'],
    [{ contentLength: -5 }, 'contentLength', 'must be at least 1 byte'],
    [{ contentLength: 0 }, 'contentLength', 'must be at least 1 byte'],
    [{ contentLength: 10.5 }, 'contentLength', 'must be a whole number of bytes'],
    [{ contentLength: '100' }, 'contentLength', 'must be the file’s size in bytes (a number)'],
    [{ fileName: '' }, 'fileName', 'must not be empty'],
    [{ extra: 1 }, '', 'Unrecognized key: "extra"'],
  ])('refuses %j with a 400 naming the field', async (change, path, message) => {
    const { userId } = await newSocialUser(apiKey);
    const response = await call('/uploads/create_upload', { userId, fileName: 'list.csv', contentLength: 100, ...change }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.details).toContainEqual({ path, message });
  });

  it('is for a user of the key’s tenant only', async () => {
    const response = await call('/uploads/create_upload', { userId: 'nobody-here', fileName: 'list.csv', contentLength: 100 }, { apiKey });
    expect(response.status).toBe(404);
    expect(response.body.results.code).toBe('USER_NOT_FOUND');
  });

  it('refuses a PUT of another size than declared, or of another content type, and nothing is stored', async () => {
    const { userId } = await newSocialUser(apiKey);
    const ticket = await createUpload(apiKey, userId, 100);
    const shorter = await fetch(ticket.url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'email\na@example.com\n' });
    expect(shorter.status).toBe(403);
    expect(await shorter.text()).toContain('SignatureDoesNotMatch');
    const otherType = await fetch(ticket.url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'x'.repeat(100) });
    expect(otherType.status).toBe(403);
    expect((await storedObjects()).filter((key) => key.includes(ticket.uploadId))).toEqual([]);
  });
});

describe('operation 7 with an uploadId', () => {
  it('create: the audience at once, then a job sends 25,001 rows in three batches of one session, ending with the platform’s counts and a webhook', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const csv = `${contactsCsv(25_000)}not-an-email,,,,,\n`;
    const uploadId = await uploaded(apiKey, userId, csv);
    const started = await call(SOCIAL, { userId, audienceName: 'Big list', uploadId }, { apiKey });
    expect(started.status).toBe(200);
    expect(started.body.results).toEqual({
      success: true,
      audienceId: expect.stringMatching(/^\d+$/),
      audienceName: 'Big list',
      session_id: expect.stringMatching(/^\d+$/),
      num_received: 0,
      num_invalid_entries: 0,
      invalid_entry_samples: {},
      jobId: expect.stringMatching(/^job_[0-9a-f]{32}$/),
      status: 'running',
    });
    const { audienceId, session_id: sessionId, jobId } = started.body.results;

    const { job, seen } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({
      jobId,
      type: 'social_audience',
      userId,
      status: 'succeeded',
      progress: { bytesRead: Buffer.byteLength(csv), totalBytes: Buffer.byteLength(csv), rowsRead: 25_001, rowsSent: 25_000, batchesSent: 3 },
      result: {
        audienceId,
        audienceName: 'Big list',
        session_id: sessionId,
        num_received: 25_001,
        num_invalid_entries: 1,
        invalid_entry_samples: { 'line 25002 (email)': expect.stringContaining('EMAIL') },
      },
    });
    // counters only move forward
    for (const [index, view] of seen.entries()) {
      const before = seen[index - 1];
      if (!before) continue;
      for (const counter of ['bytesRead', 'rowsRead', 'rowsSent', 'batchesSent'] as const)
        expect(view.progress[counter]).toBeGreaterThanOrEqual(before.progress[counter]);
    }

    const [create, ...batches] = await upstreamRequestsWith('social', token);
    expect(create?.path).toMatch(/\/customaudiences$/);
    expect(batches.map((request) => `${request.method} ${request.path}`)).toEqual(Array(3).fill(`POST /v26.0/${audienceId}/users`));
    expect(bodies(batches).map((body) => body.session)).toEqual([
      { session_id: Number(sessionId), batch_seq: 1, last_batch_flag: false, estimated_num_total: 25_000 },
      { session_id: Number(sessionId), batch_seq: 2, last_batch_flag: false, estimated_num_total: 25_000 },
      { session_id: Number(sessionId), batch_seq: 3, last_batch_flag: true, estimated_num_total: 25_000 },
    ]);
    expect(bodies(batches).map((body) => body.payload.data.length)).toEqual([10_000, 10_000, 5_000]);
    expect(bodies(batches)[0].payload.data[0][0]).toBe(sha256Hex('person0@example.com'));
    for (const batch of batches) expect(batch.body).not.toContain('example.com');

    const events = await eventually(async () => (eventsOf(jobId).length > 0 ? eventsOf(jobId) : undefined));
    expect(events).toEqual([
      {
        type: 'audience_job.succeeded',
        timestamp: expect.any(String),
        data: { jobId, userId, type: 'social_audience', status: 'succeeded', result: job.result },
      },
    ]);
    // the contacts are not kept once the audience has them
    expect((await storedObjects()).filter((key) => key.includes(uploadId))).toEqual([]);
  });

  it.each([
    ['append', 'POST', 'users'],
    ['replace', 'POST', 'usersreplace'],
    ['remove', 'DELETE', 'users'],
  ])('%s: sends the rows to the given audience, no audience created', async (mode, method, edge) => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    const uploadId = await uploaded(apiKey, userId, contactsCsv(12));
    const started = await call(SOCIAL, { userId, audienceName: 'Existing', mode, audienceId, uploadId }, { apiKey });
    expect(started.body.results).toMatchObject({ audienceId, status: 'running' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: { rowsSent: 12, batchesSent: 1 }, result: { audienceId, num_received: 12 } });
    // a start of the same upload after the job ended answers that job as it is now (the answer is checked against the OpenAPI document)
    const again = await call(SOCIAL, { userId, audienceName: 'Existing', mode, audienceId, uploadId }, { apiKey });
    expect(again.body.results).toMatchObject({ jobId: started.body.results.jobId, status: 'succeeded' });
    const requests = (await upstreamRequestsWith('social', token)).slice(skip);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`${method} /v26.0/${audienceId}/${edge}`]);
    expect(JSON.parse(requests[0]?.body ?? '{}').session).toMatchObject({ batch_seq: 1, last_batch_flag: true, estimated_num_total: 12 });
  });

  // a file checked whole by the request that starts its job (docs/csv.md): a 400, no job, no audience, nothing upstream
  it.each([
    ['a file with no usable row', 'email,phone\nnot-an-email,12\nalso bad,\n', 'None of the 2 rows can be used'],
    ['a file that is not a CSV', Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xff, 0xfe, 0x00, 0x01]), 'UTF-8'],
    ['a header only', 'email,phone\n', 'header but no data rows'],
  ])('%s is refused by the start with the reason, in both modes: no job, no audience made, nothing upstream', async (_name, content, why) => {
    const { userId, token } = await newSocialUser(apiKey);
    for (const body of [
      { userId, audienceName: 'Nothing usable', mode: 'append', audienceId: '120210555000012345' },
      { userId, audienceName: 'Nothing usable', mode: 'create' },
    ]) {
      const uploadId = await uploaded(apiKey, userId, content);
      const started = await call(SOCIAL, { ...body, uploadId }, { apiKey });
      expect(started.status, started.text).toBe(400);
      expect(started.body.results.details).toEqual([{ path: 'file', message: expect.stringContaining(why) }]);
    }
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it('throttling mid-job: the job waits as the platform asks and goes on in the same session, never failing', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    const uploadId = await uploaded(apiKey, userId, contactsCsv(20_000));
    const started = await call(SOCIAL, { userId, audienceName: 'Throttled', mode: 'append', audienceId, uploadId }, { apiKey });
    // the second batch meets a throttle that outlasts the worker's own retries; the account usage header names a 1 s reset
    await injectFault('social', {
      requestIncludes: '"batch_seq":2',
      pathIncludes: '/users',
      status: 400,
      body: { error: { code: 80003, message: 'There have been too many calls to this ad account.', type: 'OAuthException' } },
      headers: { 'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 1 }) },
      times: 4,
    });
    const { job, seen } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(seen.every((view) => view.status !== 'failed')).toBe(true);
    expect(job, JSON.stringify(job.error)).toMatchObject({
      status: 'succeeded',
      progress: { rowsSent: 20_000, batchesSent: 2 },
      result: { num_received: 20_000 },
    });
    const sessions = bodies((await upstreamRequestsWith('social', token)).slice(skip)).map((body) => body.session);
    expect(new Set(sessions.map((session) => session.session_id)).size).toBe(1);
    expect(sessions.map((session) => session.batch_seq)).toEqual([1, 2, 2, 2, 2, 2]); // three refused, the wait, one refused, one taken
  });

  it('a batch whose answer never came is sent again by the retry and counted twice by the platform: the job reports distinct rows', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    const uploadId = await uploaded(apiKey, userId, contactsCsv(20_000));
    const started = await call(SOCIAL, { userId, audienceName: 'Lost answer', mode: 'append', audienceId, uploadId }, { apiKey });
    // the platform takes the second batch, and its answer comes after our timeout: the upstream core sends it again
    await injectFault('social', { requestIncludes: '"batch_seq":2', pathIncludes: '/users', answerDelayMs: LOST_ANSWER_DELAY_MS, times: 1 });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    const sessions = bodies((await upstreamRequestsWith('social', token)).slice(skip)).map((body) => body.session.batch_seq);
    expect(sessions, JSON.stringify(job.error)).toEqual([1, 2, 2]);
    expect(job, JSON.stringify(job.error)).toMatchObject({
      status: 'succeeded',
      progress: { rowsSent: 20_000, batchesSent: 2 },
      result: { num_received: 20_000 },
    });
  });

  it('hands over to its own continuation before its time runs out; the next run goes on from the checkpoint, each batch once', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    // the job operation 7 would store, run here by hand with 10 s left (a slice of 7 s), while each batch
    // takes the platform 1.5 s (inside our 3 s limit): the five cannot all go in the slice, and the check of
    // the file leaves time for one
    const sessionId = Date.now() * 1000;
    const jobId = await storedSocialJob(userId, await uploaded(apiKey, userId, contactsCsv(50_000)), audienceId, { sessionId, at: new Date().toISOString() });
    await injectFault('social', { requestIncludes: token, pathIncludes: '/users', answerDelayMs: 1_500, times: 6 });
    const deadline = Date.now() + 10_000;
    await runJob({ tenantId, jobId }, { getRemainingTimeInMillis: () => deadline - Date.now() } as Context);
    const handedOver = (await getJob(apiKey, jobId)).body.results.job;
    expect(handedOver.status).toBe('running');
    expect(handedOver.progress.batchesSent).toBeGreaterThan(0);
    expect(handedOver.progress.batchesSent).toBeLessThan(5);

    // the stack's worker runs the continuation it queued (minutes on a busy machine: each batch's answer takes 1.5 s of 2)
    const { job } = await jobToEnd(apiKey, jobId, { timeoutMs: 120_000 });
    const sent = bodies((await upstreamRequestsWith('social', token)).slice(skip));
    // distinct rows: a batch the platform counted twice (sent, cut by the deadline, sent again) is counted once
    expect(job, JSON.stringify(sent.map((body) => body.session))).toMatchObject({
      status: 'succeeded',
      progress: { rowsSent: 50_000, batchesSent: 5 },
      result: { num_received: 50_000, session_id: String(sessionId) },
    });
    const sequence = sent.map((body) => body.session);
    const sessions = sequence.filter((session, index) => sequence.findIndex((other) => other.batch_seq === session.batch_seq) === index);
    expect(sessions.map((session) => session.batch_seq)).toEqual([1, 2, 3, 4, 5]);
    // the continuation read the file on from where the last acknowledged batch ended: every row, none twice but a resent batch
    const emails = sent.flatMap((body) => body.payload.data.map((row: string[]) => row[0]));
    expect(new Set(emails)).toEqual(new Set(Array.from({ length: 50_000 }, (_, index) => sha256Hex(`person${index}@example.com`))));
    expect(emails.length - 50_000).toBeLessThanOrEqual(10_000);
    expect(sequence.length - sessions.length).toBeLessThanOrEqual(1); // a batch cut by the deadline goes again, once, with its number
    expect(new Set(sessions.map((session) => session.session_id))).toEqual(new Set([sessionId]));
  }, 150_000);

  it('a run that finds every batch acknowledged (a crash after the last answer) ends the job with the saved counts, sending nothing', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    const csv = contactsCsv(3);
    const sessionId = Date.now() * 1000;
    const layout = contactLayout(csv.split('\n')[0]?.split(',') ?? []);
    const acknowledged = {
      usableRows: 3,
      batchesAcked: 1,
      rowsAcked: 3,
      platformReceived: 3,
      resumeAt: { byte: Buffer.byteLength(csv), line: 4, delimiter: ',', dataRows: 3, layout },
    };
    const jobId = await storedSocialJob(userId, await uploaded(apiKey, userId, csv), audienceId, {
      sessionId,
      at: new Date().toISOString(),
      checkpoint: acknowledged,
    });
    await runJob({ tenantId, jobId }, { getRemainingTimeInMillis: () => 60_000 } as Context);
    const { job } = (await getJob(apiKey, jobId)).body.results;
    expect(job).toMatchObject({ status: 'succeeded', result: { num_received: 3, num_invalid_entries: 0, session_id: String(sessionId) } });
    expect((await upstreamRequestsWith('social', token)).slice(skip)).toHaveLength(0);
  });

  it('a job whose message was lost is queued again by the sweep once nothing has moved it for longer than the worker’s timeout', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { audienceId, skip } = await existingAudience(userId);
    // stored, then its message lost 16 minutes ago
    const jobId = await storedSocialJob(userId, await uploaded(apiKey, userId, contactsCsv(15)), audienceId, {
      sessionId: Date.now() * 1000,
      at: new Date(Date.now() - 16 * 60_000).toISOString(),
    });
    const { requeued } = await sweepJobs();
    expect(requeued).toBeGreaterThanOrEqual(1);
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: { rowsSent: 15 } });
    expect((await upstreamRequestsWith('social', token)).slice(skip)).toHaveLength(1);
  });

  it('a start sent again with the same Idempotency-Key answers the same job, and makes no second audience', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, contactsCsv(5));
    const headers = { 'idempotency-key': `start-${randomBytes(6).toString('hex')}` };
    const first = await call(SOCIAL, { userId, audienceName: 'Once', uploadId }, { apiKey, headers });
    const again = await call(SOCIAL, { userId, audienceName: 'Once', uploadId }, { apiKey, headers });
    expect(again.body.results).toEqual(first.body.results);
    await jobToEnd(apiKey, first.body.results.jobId);
    expect((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/customaudiences'))).toHaveLength(1);
  });

  it('an uploadId unknown, of another user, of another tenant or never PUT is one and the same 404, and nothing goes upstream', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const { userId: otherUser } = await newSocialUser(apiKey);
    const otherUsers = await uploaded(apiKey, otherUser, contactsCsv(3));
    const otherKey = await newTenant();
    const { userId: foreignUser } = await newSocialUser(otherKey);
    const otherTenants = await uploaded(otherKey, foreignUser, contactsCsv(3));
    const neverPut = (await createUpload(apiKey, userId, 50)).uploadId;
    const answers = [];
    for (const uploadId of ['upl_00000000000000000000000000000000', otherUsers, otherTenants, neverPut]) {
      const response = await call(SOCIAL, { userId, audienceName: 'Not mine', uploadId }, { apiKey });
      expect(response.status, uploadId).toBe(404);
      answers.push({ ...response.body.results, error: response.body.results.error.replace(uploadId, 'ID') });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(await upstreamRequestsWith('social', token)).toEqual([]); // not even the audience is created
  });

  it('validates the JSON body as the form: mode rules, unknown fields, and a file field is no JSON', async () => {
    const { userId } = await newSocialUser(apiKey);
    const appendWithoutAudience = await call(SOCIAL, { userId, audienceName: 'x', mode: 'append', uploadId: 'upl_1' }, { apiKey });
    expect(appendWithoutAudience.body.results.details).toEqual([{ path: 'audienceId', message: 'is required when mode is append' }]);
    const withFile = await call(SOCIAL, { userId, audienceName: 'x', csvFile: 'email\na@example.com', uploadId: 'upl_1' }, { apiKey });
    expect(withFile.status).toBe(400);
    expect(withFile.body.results.details).toContainEqual({ path: '', message: 'Unrecognized key: "csvFile"' });
    const withoutUpload = await call(SOCIAL, { userId, audienceName: 'x' }, { apiKey });
    expect(withoutUpload.body.results.details).toContainEqual({ path: 'uploadId', message: expect.any(String) });
    const otherType = await call(SOCIAL, undefined, { apiKey, headers: { 'content-type': 'text/plain' }, raw: 'userId=x' });
    expect(otherType.status).toBe(415);
    expect(otherType.body.results.error).toBe(
      'The request body must be sent as multipart/form-data (the file) or application/json (an uploadId from /uploads/create_upload).',
    );
  });
});

describe('operation 8 with an uploadId', () => {
  it('USER_LIST_UPLOAD: {jobId, status} at once; the job streams the rewritten list and its result is audience.csvFileId', async () => {
    const { userId, token } = await professionalUser();
    const csv = `${professionalContacts(400)}not-an-email,Ann,Lee,us\n`;
    const uploadId = await uploaded(apiKey, userId, csv);
    const started = await call(PROFESSIONAL, { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees', uploadId }, { apiKey });
    expect(started.status).toBe(200);
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job).toMatchObject({
      type: 'professional_audience',
      status: 'succeeded',
      progress: { totalBytes: Buffer.byteLength(csv), bytesRead: Buffer.byteLength(csv), rowsRead: 401, rowsSent: 400, batchesSent: 1 },
      result: {
        audience: { csvFileId: expect.stringMatching(/^urn:li:media:\/AAYA[\w-]+\.csv$/) },
        warnings: ['1 row(s) were left out: line 402: email is not an e-mail address.'],
      },
    });
    const [generate, fileUpload, segment, attach, ...rest] = await upstreamRequestsWith('professional', token);
    expect(rest).toEqual([]);
    expect(generate).toMatchObject({ method: 'POST', path: '/rest/dmpSegments', query: { action: 'generateUploadUrl' } });
    expect(fileUpload).toMatchObject({ method: 'POST', path: '/ambry/' });
    expect(fileUpload?.headers).toMatchObject({ 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(fileUpload?.body ?? '')) });
    const rows = parse(fileUpload?.body ?? '') as string[][];
    expect(rows[0]).toEqual(['email', 'firstname', 'lastname', 'country']);
    expect(rows).toHaveLength(401);
    expect(rows[1]).toEqual([sha256Hex('member0@example.com'), 'Ann', 'Lee', 'US']);
    expect(fileUpload?.body).not.toContain('@example.com');
    expect(JSON.parse(segment?.body ?? '{}')).toMatchObject({ name: 'Webinar attendees', type: 'USER_LIST_UPLOAD', sourcePlatform: 'LIST_UPLOAD' });
    expect(JSON.parse(attach?.body ?? '{}')).toEqual({ inputFile: job.result.audience.csvFileId });
    const again = await call(PROFESSIONAL, { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees', uploadId }, { apiKey });
    expect(again.body.results).toEqual({ success: true, jobId: started.body.results.jobId, status: 'succeeded' });
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(4);
  });

  it('a segment create whose answer never came is read back by name and adopted: one segment, attached, the job done', async () => {
    const { userId, token } = await professionalUser();
    const name = `Lost answer ${randomBytes(4).toString('hex')}`;
    const uploadId = await uploaded(apiKey, userId, professionalContacts(300));
    // the platform makes the segment and its answer comes after our timeout
    await injectFault('professional', { requestIncludes: `"name":"${name}"`, pathIncludes: '/rest/dmpSegments', answerDelayMs: LOST_ANSWER_DELAY_MS });
    const started = await call(PROFESSIONAL, { userId, type: 'USER_LIST_UPLOAD', audienceName: name, uploadId }, { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job, JSON.stringify(job.error)).toMatchObject({ status: 'succeeded' });
    const requests = await upstreamRequestsWith('professional', token);
    const creates = requests.filter((request) => request.method === 'POST' && request.path === '/rest/dmpSegments' && !request.query.action);
    expect(creates).toHaveLength(1);
    const readBack = requests.find((request) => request.method === 'GET' && request.query.q === 'account');
    expect(readBack?.query).toMatchObject({ sourcePlatform: 'LIST_UPLOAD', account: `urn:li:sponsoredAccount:${PROFESSIONAL_ACCOUNT}` });
    const attach = requests.filter((request) => request.path.endsWith('/listUploads'));
    expect(attach).toHaveLength(1);
  });

  it('COMPANY_LIST_UPLOAD through an upload', async () => {
    const { userId, token } = await professionalUser();
    const lines = ['companyname,companywebsite,companycountry', ...Array.from({ length: 350 }, (_, index) => `Company ${index},company${index}.example,us`)];
    const uploadId = await uploaded(apiKey, userId, `${lines.join('\n')}\n`);
    const started = await call(PROFESSIONAL, { userId, type: 'COMPANY_LIST_UPLOAD', uploadId }, { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job).toMatchObject({
      status: 'succeeded',
      progress: { rowsRead: 350, rowsSent: 350 },
      result: { audience: { csvFileId: expect.stringMatching(/^urn:li:media:/) } },
    });
    expect(job.result).not.toHaveProperty('warnings');
    const segment = (await upstreamRequestsWith('professional', token)).find((request) => request.path === '/rest/dmpSegments' && !request.query.action);
    expect(JSON.parse(segment?.body ?? '{}')).toMatchObject({
      type: 'COMPANY_LIST_UPLOAD',
      name: expect.stringMatching(/^Company list upload \d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/),
    });
  });

  it('a wrong header set is refused by the start with the reason: no job, nothing upstream', async () => {
    const { userId, token } = await professionalUser();
    const uploadId = await uploaded(apiKey, userId, 'companyname,companywebsite\nAcme,acme.example\n');
    const started = await call(PROFESSIONAL, { userId, type: 'USER_LIST_UPLOAD', uploadId }, { apiKey });
    expect(started.status, started.text).toBe(400);
    expect(JSON.stringify(started.body.results.details)).toContain('are those of COMPANY_LIST_UPLOAD, not of USER_LIST_UPLOAD');
    expect(await upstreamRequestsWith('professional', token)).toEqual([]);
  });

  it('a user without a professional connection is a 409 before any job', async () => {
    const { userId } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, professionalContacts(3));
    const response = await call(PROFESSIONAL, { userId, type: 'USER_LIST_UPLOAD', uploadId }, { apiKey });
    expect(response.status).toBe(409);
    expect(response.body.results.code).toBe('PLATFORM_NOT_CONNECTED');
  });
});

describe('get_job', () => {
  it('another tenant’s job is the same 404 as an unknown one', async () => {
    const { userId } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, contactsCsv(2));
    const started = await call(SOCIAL, { userId, audienceName: 'Mine', mode: 'append', audienceId: '120210555000012345', uploadId }, { apiKey });
    const jobId = started.body.results.jobId;
    const otherKey = await newTenant();
    const foreign = await getJob(otherKey, jobId);
    const unknown = await getJob(otherKey, 'job_00000000000000000000000000000000');
    expect(foreign.status).toBe(404);
    expect(foreign.body.results.code).toBe('NOT_FOUND');
    expect(foreign.body.results.error.replace(jobId, 'ID')).toBe(unknown.body.results.error.replace('job_00000000000000000000000000000000', 'ID'));
    expect((await getJob(apiKey, jobId)).status).toBe(200);
  });
});
