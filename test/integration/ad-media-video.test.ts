import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMp4 } from '../../local/sandbox/sample-media.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { newSocialUser } from '../helpers/social.ts';
import { LOST_ANSWER_DELAY_MS } from '../helpers/timing.ts';
import { getJob, jobToEnd, putFile } from '../helpers/uploads.ts';

/**
 * Videos into a user's social ad account (docs/decisions.md, "Media into an ad account"): the job sends
 * the upload in the ranges the platform names, one checkpoint per acknowledged chunk, then follows the
 * platform's processing on queue delays. The sandbox takes 1 MiB ranges and processes a video in the
 * time set for its ad account.
 */
const MEDIA = '/social/upload_ad_media';
const MiB = 1024 * 1024;
let apiKey = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/media` } }, { apiKey });
});
afterAll(() => receiver.close());

const eventsOf = (jobId: string) => webhookEvents(receiver.received).filter((event) => event.data?.jobId === jobId);

/** A user on an ad account of its own, whose videos process as told (seconds, or fail with a message). */
async function videoUser(processing: { seconds?: number; error?: string; sessionSeconds?: number } = { seconds: 0 }) {
  const adAccountId = `8${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const user = await newSocialUser(apiKey, { adAccountId });
  const set = await fetch(`${stack().sandboxes.social}/__sandbox/video-processing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: adAccountId, ...processing }),
  });
  expect(set.status).toBe(200);
  return { ...user, adAccountId };
}

async function videoUpload(userId: string, bytes: Buffer): Promise<string> {
  const ticket = await call(
    '/uploads/create_upload',
    { userId, fileName: 'clip.mp4', contentLength: bytes.length, purpose: 'video', contentType: 'video/mp4' },
    { apiKey },
  );
  expect(ticket.status, ticket.text).toBe(200);
  expect((await putFile(ticket.body.results, bytes)).status).toBe(200);
  return ticket.body.results.uploadId;
}

const videoCalls = async (token: string) =>
  (await upstreamRequestsWith('social', token)).filter((request) => request.path.includes('advideos') || /\/\d+$/.test(request.path));
const phases = (requests: Array<{ path: string; body: string; files?: Record<string, { bytes: number; sha256: string }> }>) =>
  requests
    .filter((request) => request.path.includes('/video-host/'))
    .map((request) => {
      const fields = Object.fromEntries(new URLSearchParams(request.body));
      return {
        phase: fields.upload_phase,
        ...(fields.start_offset !== undefined ? { offset: Number(fields.start_offset) } : {}),
        ...(request.files?.video_file_chunk ? { chunk: request.files.video_file_chunk.bytes } : {}),
      };
    });

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sandboxVideo = async (id: string) => (await fetch(`${stack().sandboxes.social}/__sandbox/videos/${id}`)).json();

describe('upload_ad_media with a video (social)', () => {
  it('a 2.5 MiB video: a job at once, three chunks of the ranges the platform named, finish, then ready; listed, audited, announced', async () => {
    const { userId, token, adAccountId } = await videoUser();
    const bytes = sampleMp4(2.5 * MiB);
    const uploadId = await videoUpload(userId, bytes);
    const started = await call(MEDIA, { userId, uploadId, name: 'Spring teaser' }, { apiKey });
    expect(started.status, started.text).toBe(200);
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_[0-9a-f]{32}$/), status: 'queued' });
    const { jobId } = started.body.results;

    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({
      type: 'ad_media',
      userId,
      status: 'succeeded',
      progress: { bytesSent: bytes.length, totalBytes: bytes.length, chunksSent: 3, processing: { status: 'ready', percent: 100 } },
      result: { media: { type: 'VIDEO', id: expect.stringMatching(/^\d+$/), status: 'ready' } },
    });
    const videoId = job.result?.media.id;

    const requests = await videoCalls(token);
    expect(phases(requests)).toEqual([
      { phase: 'start' },
      { phase: 'transfer', offset: 0, chunk: MiB },
      { phase: 'transfer', offset: MiB, chunk: MiB },
      { phase: 'transfer', offset: 2 * MiB, chunk: 0.5 * MiB },
      { phase: 'finish' },
    ]);
    const [start, , , , finish] = requests;
    expect(start?.path).toBe(`/video-host/v26.0/act_${adAccountId}/advideos`);
    expect(new URLSearchParams(start?.body).get('file_size')).toBe(String(bytes.length));
    expect(new URLSearchParams(finish?.body).get('title')).toBe('Spring teaser');
    expect(requests.at(-1)).toMatchObject({ method: 'GET', path: `/v26.0/${videoId}`, query: { fields: 'status' } });
    // the platform holds exactly the file
    expect(await sandboxVideo(videoId)).toEqual({ bytes: bytes.length, sha256: sha256(bytes), title: 'Spring teaser' });

    const listed = await call('/social/get_ad_account_media', { userId, type: 'VIDEO' }, { apiKey });
    expect(listed.body.results.media.map((video: { id: string }) => video.id)).toContain(videoId);

    const audit = await call('/tenant/list_audit_events', { userId }, { apiKey });
    const mediaEvents = audit.body.results.events.filter((event: { action: string }) => event.action.startsWith('ad_media'));
    expect(mediaEvents.map((event: { action: string; target: { id: string }; outcome: string }) => [event.action, event.target.id, event.outcome])).toEqual([
      ['ad_media.uploaded', videoId, 'succeeded'],
      ['ad_media_job.started', jobId, 'succeeded'],
    ]);
    const events = await eventually(async () => (eventsOf(jobId).length > 0 ? eventsOf(jobId) : undefined));
    expect(events).toEqual([
      { type: 'ad_media.ready', timestamp: expect.any(String), data: { jobId, userId, type: 'ad_media', status: 'succeeded', result: job.result } },
    ]);

    // the upload is spent: sent again, it answers the same job and sends nothing
    const before = (await videoCalls(token)).length;
    const again = await call(MEDIA, { userId, uploadId }, { apiKey });
    expect(again.body.results).toEqual({ success: true, jobId, status: 'succeeded' });
    expect(await videoCalls(token)).toHaveLength(before);
  });

  it('processing that takes a while is polled on queue delays until ready; get_job shows where it is', async () => {
    const { userId, token } = await videoUser({ seconds: 4 });
    const uploadId = await videoUpload(userId, sampleMp4(300_000));
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job, seen } = await jobToEnd(apiKey, jobId, { timeoutMs: 45_000 });
    expect(job.status).toBe('succeeded');
    expect(seen.some((view) => (view.progress as { processing?: { status: string } }).processing?.status === 'processing')).toBe(true);
    const polls = (await videoCalls(token)).filter((request) => request.method === 'GET');
    expect(polls.length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('processing the platform fails ends the job MEDIA_PROCESSING_FAILED with the platform’s reason, audited failed, announced', async () => {
    const { userId } = await videoUser({ seconds: 0, error: 'The video file you selected is in a format that we don’t support.' });
    const uploadId = await videoUpload(userId, sampleMp4(200_000));
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'MEDIA_PROCESSING_FAILED', message: expect.stringContaining('a format that we don’t support') },
      progress: { processing: { status: 'error' } },
    });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'ad_media.uploaded' }, { apiKey });
    expect(audit.body.results.events).toMatchObject([{ outcome: 'failed', error: { code: 'MEDIA_PROCESSING_FAILED' } }]);
    const events = await eventually(async () => (eventsOf(jobId).length > 0 ? eventsOf(jobId) : undefined));
    expect(events).toMatchObject([{ type: 'ad_media.failed', data: { status: 'failed', error: { code: 'MEDIA_PROCESSING_FAILED' } } }]);
  });

  it('a chunk refused as transient (2/1363030) is sent again at the same offset; the file arrives whole', async () => {
    const { userId, token, adAccountId } = await videoUser();
    const bytes = sampleMp4(2 * MiB + 1000);
    const uploadId = await videoUpload(userId, bytes);
    await injectFault('social', {
      requestIncludes: `start_offset=${MiB}`,
      pathIncludes: `act_${adAccountId}/advideos`,
      status: 400,
      body: { error: { message: 'Video Upload Time Out', type: 'OAuthException', code: 2, error_subcode: 1363030, is_transient: true } },
    });
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: { chunksSent: 3, bytesSent: bytes.length } });
    expect(phases(await videoCalls(token)).map((phase) => phase.offset ?? phase.phase)).toEqual(['start', 0, MiB, MiB, 2 * MiB, 'finish']);
    expect(await sandboxVideo(job.result?.media.id)).toMatchObject({ sha256: sha256(bytes) });
  });

  it('a chunk the platform keeps refusing as a problem with the file (6001) ends the job MEDIA_PROCESSING_FAILED, after it was tried again', async () => {
    const { userId, token, adAccountId } = await videoUser();
    const uploadId = await videoUpload(userId, sampleMp4(300_000));
    await injectFault('social', {
      requestIncludes: 'upload_phase=transfer',
      pathIncludes: `act_${adAccountId}/advideos`,
      status: 400,
      body: {
        error: { message: 'There was a problem uploading your video file. Please try again.', type: 'OAuthException', code: 6001, error_subcode: 1363019 },
      },
      times: 10,
    });
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'MEDIA_PROCESSING_FAILED', message: expect.stringContaining('would not take the video') } });
    const transfers = phases(await videoCalls(token)).filter((phase) => phase.phase === 'transfer');
    expect(transfers.length).toBeGreaterThan(1); // tried again before the file was given up
    expect(new Set(transfers.map((phase) => phase.offset))).toEqual(new Set([0]));
  });

  it('a chunk whose answer never came is sent again at its offset; the platform names the next range and the job follows it', async () => {
    const { userId, token, adAccountId } = await videoUser();
    const bytes = sampleMp4(2 * MiB + 1000);
    const uploadId = await videoUpload(userId, bytes);
    // the platform takes the second chunk, and its answer comes after our timeout
    await injectFault('social', { requestIncludes: `start_offset=${MiB}`, pathIncludes: `act_${adAccountId}/advideos`, answerDelayMs: LOST_ANSWER_DELAY_MS });
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length } });
    // the resend of [1 MiB, 2 MiB) is answered 1363037 with the range it wants next: 2 MiB on
    expect(phases(await videoCalls(token)).map((phase) => phase.offset ?? phase.phase)).toEqual(['start', 0, MiB, MiB, 2 * MiB, 'finish']);
    expect(await sandboxVideo(job.result?.media.id)).toMatchObject({ bytes: bytes.length, sha256: sha256(bytes) });
  });

  it.each([
    ['as a problem uploading (6001, the sandbox’s own answer)', {}],
    ['with another code (100)', { status: 400, body: { error: { message: '(#100) Invalid upload session', type: 'OAuthException', code: 100 } } }],
  ])('a session that ended before the file was whole, refused %s: its video reads expired, so a new session takes the whole file', async (_label, refusal) => {
    const { userId, token, adAccountId } = await videoUser({ seconds: 0, sessionSeconds: 1 });
    const bytes = sampleMp4(2 * MiB + 1000);
    const uploadId = await videoUpload(userId, bytes);
    // the second chunk reaches the platform two seconds late: its session (one second) has ended by then
    await injectFault('social', { requestIncludes: `start_offset=${MiB}`, pathIncludes: `act_${adAccountId}/advideos`, delayMs: 2_000, ...refusal });
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length, chunksSent: 3 } });

    const requests = await videoCalls(token);
    const fields = (request: { body: string }) => new URLSearchParams(request.body);
    const starts = requests.filter((request) => fields(request).get('upload_phase') === 'start');
    expect(starts).toHaveLength(2);
    const sessions = [...new Set(requests.map((request) => fields(request).get('upload_session_id')).filter(Boolean))];
    expect(sessions).toHaveLength(2);
    const inSession = (id: string | null | undefined) => phases(requests.filter((request) => fields(request).get('upload_session_id') === id));
    // the first session: the first chunk taken, the second refused (tried again, then given up)
    expect(inSession(sessions[0]).map((phase) => phase.offset)).toEqual([
      0,
      ...inSession(sessions[0])
        .slice(1)
        .map(() => MiB),
    ]);
    // before a new session, the video was read back: expired
    const readBack = requests.findIndex((request) => request.method === 'GET' && !request.path.endsWith(`/${job.result?.media.id}`));
    expect(readBack).toBeGreaterThan(-1);
    expect(readBack).toBeLessThan(requests.indexOf(starts[1] as (typeof requests)[number]));
    // the second: the whole file from its start, then finish
    expect(inSession(sessions[1]).map((phase) => phase.offset ?? phase.phase)).toEqual([0, MiB, 2 * MiB, 'finish']);
    expect(await sandboxVideo(job.result?.media.id)).toMatchObject({ bytes: bytes.length, sha256: sha256(bytes) });
  });

  it('two concurrent calls with one upload, with or without Idempotency-Key, make one job and one upload session', async () => {
    const { userId, token } = await videoUser();
    const uploadId = await videoUpload(userId, sampleMp4(100_000));
    const answers = await Promise.all([
      call(MEDIA, { userId, uploadId }, { apiKey }),
      call(MEDIA, { userId, uploadId }, { apiKey, headers: { 'idempotency-key': 'video-1' } }),
      call(MEDIA, { userId, uploadId }, { apiKey, headers: { 'idempotency-key': 'video-2' } }),
    ]);
    const jobIds = new Set(answers.map((answer) => answer.body.results.jobId));
    expect(jobIds.size).toBe(1);
    await jobToEnd(apiKey, [...jobIds][0] as string);
    expect(phases(await videoCalls(token)).filter((phase) => phase.phase === 'start')).toHaveLength(1);
  });

  it('another tenant can neither use the upload nor see the job, and no answer carries the user’s token', async () => {
    const { userId, token } = await videoUser();
    const uploadId = await videoUpload(userId, sampleMp4(100_000));
    const started = await call(MEDIA, { userId, uploadId }, { apiKey });
    const { jobId } = started.body.results;
    const otherKey = await newTenant();
    const other = await newSocialUser(otherKey);
    const stolen = await call(MEDIA, { userId: other.userId, uploadId }, { apiKey: otherKey });
    expect(stolen.status).toBe(404);
    expect((await getJob(otherKey, jobId)).status).toBe(404);
    const { job } = await jobToEnd(apiKey, jobId);
    expect(JSON.stringify([started.body, job, eventsOf(jobId)])).not.toContain(token);
    expect(await upstreamRequestsWith('social', other.token)).toEqual([]);
  });
});
