import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LIBRARY, VIDEO_PART_BYTES } from '../../local/sandbox/professional-media.ts';
import { DEMO_AD_ACCOUNT } from '../../local/sandbox/social-data.ts';
import { sampleMp4 } from '../../local/sandbox/sample-media.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { folderClock, postTo, sandboxOf, socialSandboxOf, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { jobToEnd, putFile } from '../helpers/uploads.ts';

/**
 * A video job survives a kill -9 of `npm start` (docs/decisions.md, "Media into an ad account"): the
 * stack is killed while the platform holds a chunk whose answer has not come, and started again on its
 * data folder (the sandbox keeps its upload sessions there too). The job goes on from its checkpoint:
 * no chunk the platform had acknowledged is sent again, and the platform ends with exactly the file.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-video-'));
const apiKey = 'video-crash-test-key-0123456789ab';
const env = { LOG_LEVEL: 'SILENT' };
/** each restart after a kill comes after the job queue's visibility, on the stack's clock: the dead run's message comes back at once */
const clock = folderClock();
const MiB = 1024 * 1024;
let stack: ChildStack | undefined;
beforeAll(async () => {
  stack = await startChildStack(dataDir, apiKey, env);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = () => (stack as ChildStack).url;
const sandbox = () => socialSandboxOf(stack as ChildStack);
const post = (path: string, body: unknown) => postTo(stack as ChildStack, apiKey, path, body);
const control = (path: string, body: unknown) =>
  fetch(`${sandbox()}/__sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** A video the demo user uploaded, as a client does: create_upload, then the PUT. */
async function videoUpload(bytes: Buffer, fileName: string): Promise<string> {
  const ticket = await post('/uploads/create_upload', {
    userId: 'demo-user',
    fileName,
    contentLength: bytes.length,
    purpose: 'video',
    contentType: 'video/mp4',
  });
  expect((await putFile(ticket.results, bytes)).status).toBe(200);
  return ticket.results.uploadId;
}
const transfers = async (): Promise<number[]> =>
  ((await (await fetch(`${sandbox()}/__sandbox/requests?includes=upload_phase%3Dtransfer`)).json()) as RecordedRequest[]).map((request) =>
    Number(new URLSearchParams(request.body).get('start_offset')),
  );

describe('a video job survives a kill -9 of the stack', () => {
  it('goes on from its last acknowledged chunk after a restart: none sent again, the file whole on the platform', async () => {
    const bytes = sampleMp4(6 * MiB);
    await control('video-processing', { account: DEMO_AD_ACCOUNT, seconds: 0 });
    const uploadId = await videoUpload(bytes, 'crash.mp4');
    // every chunk is stored by the platform at once, and its answer comes a second later
    await control('faults', { requestIncludes: 'upload_phase=transfer', pathIncludes: 'advideos', answerDelayMs: 1_000, times: 100 });
    const started = await post('/social/upload_ad_media', { userId: 'demo-user', uploadId });
    const { jobId } = started.results;

    // killed while the platform holds the third chunk and the job has not heard
    while ((await transfers()).length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await transfers();
    await (stack as ChildStack).kill();
    expect(before).toEqual([0, MiB, 2 * MiB]);

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length, totalBytes: bytes.length } });
    const after = await transfers();
    console.info(`chunk offsets (MiB) before the kill: ${before.map((offset) => offset / MiB)}; after: ${after.map((offset) => offset / MiB)}`);
    // the acknowledged chunks (0 and 1 MiB) never again; the one in flight again once, answered with the next range
    expect(after).toEqual([2 * MiB, 3 * MiB, 4 * MiB, 5 * MiB]);
    const video = (await (await fetch(`${sandbox()}/__sandbox/videos/${job.result?.media.id}`)).json()) as { bytes: number; sha256: string };
    expect(video).toMatchObject({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }, 120_000);
});

describe('a professional video job survives a kill -9 of the stack', () => {
  const professional = () => sandboxOf(stack as ChildStack, 'professional');
  const parts = async (): Promise<number[]> =>
    ((await (await fetch(`${professional()}/__sandbox/requests`)).json()) as RecordedRequest[])
      .filter((request) => request.method === 'PUT' && request.path.includes('/uploadedVideo/'))
      .map((request) => Number(request.path.split('/').pop()));

  it('goes on from the first part without an ETag: the acknowledged part never again, the ETags in order to finalize', async () => {
    const bytes = sampleMp4(9 * MiB); // three parts: 4, 4 and 1 MiB
    await fetch(`${professional()}/__sandbox/media-processing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ owner: SANDBOX_LIBRARY.owner, seconds: 0 }),
    });
    const uploadId = await videoUpload(bytes, 'crash.mp4');
    // every part is stored by the platform at once, and its answer comes five seconds later (long enough
    // for the kill to land first on a busy machine; the restarted sandbox has no such fault)
    await fetch(`${professional()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathIncludes: '/uploadedVideo/', method: 'PUT', answerDelayMs: 5_000, times: 100 }),
    });
    const started = await post('/professional/upload_ad_media', { userId: 'demo-user', uploadId });
    const { jobId } = started.results;

    // killed while the platform holds the second part and the job has not heard
    while ((await parts()).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await parts();
    await (stack as ChildStack).kill();
    expect(before).toEqual([0, 1]);

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length, totalBytes: bytes.length } });
    const after = await parts();
    console.info(`video parts before the kill: ${before}; after: ${after}`);
    // the acknowledged part (0) never again; the one in flight again, then the last
    expect(after).toEqual([1, 2]);
    const urn = (job.result as { media: { id: string } }).media.id;
    const stored = (await (await fetch(`${professional()}/__sandbox/media/${encodeURIComponent(urn)}`)).json()) as { etags: string[] };
    const md5 = (index: number) =>
      createHash('md5')
        .update(bytes.subarray(index * VIDEO_PART_BYTES, (index + 1) * VIDEO_PART_BYTES))
        .digest('base64');
    // each part the platform holds is exactly that part of the file
    expect(stored.etags).toEqual([0, 1, 2].map((index) => `/AQSandboxEtag${index}${md5(index)}`));
    const finalize = ((await (await fetch(`${professional()}/__sandbox/requests?includes=finalizeUploadRequest`)).json()) as RecordedRequest[]).map(
      (request) => JSON.parse(request.body).finalizeUploadRequest.uploadedPartIds,
    );
    expect(finalize).toEqual([stored.etags]);
  }, 120_000);
});

describe('a video job resumed a day after its upload session opened', () => {
  it('starts over in a new session without sending to the old one; the file whole on the platform', async () => {
    const bytes = sampleMp4(4 * MiB);
    await control('video-processing', { account: DEMO_AD_ACCOUNT, seconds: 0 });
    const uploadId = await videoUpload(bytes, 'late.mp4');
    await control('faults', { requestIncludes: 'upload_phase=transfer', pathIncludes: 'advideos', answerDelayMs: 1_000, times: 100 });
    const { jobId } = (await post('/social/upload_ad_media', { userId: 'demo-user', uploadId })).results;
    while ((await transfers()).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    const oldSession = await sessionsOfTransfers();
    await (stack as ChildStack).kill();

    // the stack comes back a day and some hours later
    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.ahead(1.2 * 86_400) });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length, chunksSent: 4 } });
    const starts = (await (await fetch(`${sandbox()}/__sandbox/requests?includes=upload_phase%3Dstart`)).json()) as RecordedRequest[];
    expect(starts).toHaveLength(1);
    // nothing to the old session: the whole file again in the new one
    const sessions = await sessionsOfTransfers();
    expect(sessions.filter((session) => oldSession.includes(session))).toEqual([]);
    expect(await transfers()).toEqual([0, MiB, 2 * MiB, 3 * MiB]);
    const video = (await (await fetch(`${sandbox()}/__sandbox/videos/${job.result?.media.id}`)).json()) as { bytes: number; sha256: string };
    expect(video).toMatchObject({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }, 120_000);
});

async function sessionsOfTransfers(): Promise<string[]> {
  const requests = (await (await fetch(`${sandbox()}/__sandbox/requests?includes=upload_phase%3Dtransfer`)).json()) as RecordedRequest[];
  return [...new Set(requests.map((request) => new URLSearchParams(request.body).get('upload_session_id') as string))];
}
