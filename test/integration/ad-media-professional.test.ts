import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { organizationOf } from '../../local/sandbox/professional-campaigns.ts';
import { VIDEO_PART_BYTES } from '../../local/sandbox/professional-media.ts';
import { sampleMp4, samplePng } from '../../local/sandbox/sample-media.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { saveConnectionHealth } from '../../shared/store/user-writes.ts';
import { findUser } from '../../shared/store/users.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { jobToEnd, putFile } from '../helpers/uploads.ts';

/**
 * Images and videos into a professional ad account (docs/decisions.md, "Media into an ad account"): owned
 * by the organization the account advertises for; an image through initializeUpload and a PUT with the
 * token; a video through its upload parts (pre-signed, no token), their ETags in order to finalizeUpload,
 * then its processing followed by the job.
 */
const MEDIA = '/professional/upload_ad_media';
let apiKey = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/media` } }, { apiKey });
});
afterAll(() => receiver.close());

let accounts = 0;
/** A user on an ad account (and so an organization) of its own, whose media process as told. */
async function mediaUser(processing: { seconds?: number; error?: string; urlSeconds?: number } = { seconds: 0 }, marker = '') {
  const adAccountId = String(510_000_000 + (Date.now() % 1_000) * 100 + accounts++);
  const token = `AQVmedia${marker}${randomBytes(10).toString('hex')}`;
  const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId } });
  const owner = organizationOf(adAccountId);
  const set = await fetch(`${stack().sandboxes.professional}/__sandbox/media-processing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner, ...processing }),
  });
  expect(set.status).toBe(200);
  return { userId, token, adAccountId, owner };
}

async function mediaUpload(userId: string, bytes: Buffer, purpose: 'image' | 'video', contentType: string): Promise<string> {
  const ticket = await call('/uploads/create_upload', { userId, fileName: 'file', contentLength: bytes.length, purpose, contentType }, { apiKey });
  expect(ticket.status, ticket.text).toBe(200);
  expect((await putFile(ticket.body.results, bytes)).status).toBe(200);
  return ticket.body.results.uploadId;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const stored = async (urn: string) => (await fetch(`${stack().sandboxes.professional}/__sandbox/media/${encodeURIComponent(urn)}`)).json();
const eventsOf = (jobId: string) => webhookEvents(receiver.received).filter((event) => event.data?.jobId === jobId);

describe('upload_ad_media (professional)', () => {
  it('an uploaded PNG: the account’s organization, initializeUpload, the PUT with the token, its status read; the URN at once', async () => {
    const { userId, token, adAccountId, owner } = await mediaUser({ seconds: 5 });
    const bytes = samplePng(1200, 627);
    const uploadId = await mediaUpload(userId, bytes, 'image', 'image/png');
    const response = await call(MEDIA, { userId, uploadId, name: 'Spring hero' }, { apiKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results.media).toEqual({ type: 'IMAGE', id: expect.stringMatching(/^urn:li:image:/), width: 1200, height: 627, status: 'processing' });
    const urn = response.body.results.media.id;

    const requests = await upstreamRequestsWith('professional', token);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /rest/adAccounts/${adAccountId}`,
      'POST /rest/images',
      expect.stringMatching(/^PUT \/dms-uploads\/sp\/v2\/\w+\/uploaded-image\/0$/),
      `GET /rest/images/${encodeURIComponent(urn)}`,
    ]);
    expect(requests[1]?.query).toEqual({ action: 'initializeUpload' });
    expect(JSON.parse(requests[1]?.body ?? '{}')).toEqual({
      initializeUploadRequest: { owner, mediaLibraryMetadata: { associatedAccount: `urn:li:sponsoredAccount:${adAccountId}`, assetName: 'Spring hero' } },
    });
    expect(requests[2]?.headers).toMatchObject({ authorization: `Bearer ${token}`, 'content-length': String(bytes.length) });
    expect(requests[2]?.headers['linkedin-version']).toBeUndefined();
    expect(await stored(urn)).toMatchObject({ owner, sha256: sha256(bytes) });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'ad_media.uploaded' }, { apiKey });
    expect(audit.body.results.events).toMatchObject([{ target: { type: 'media', id: urn }, platform: 'professional', outcome: 'succeeded' }]);
    // sent again: the same image, nothing more upstream
    expect((await call(MEDIA, { userId, uploadId }, { apiKey })).body.results.media.id).toBe(urn);
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(4);
  });

  it('an image from a URL, available at once when the platform is quick', async () => {
    const { userId } = await mediaUser();
    const url = `${stack().sandboxes.professional}/__sandbox/sample.png?width=640&height=640`;
    const response = await call(MEDIA, { userId, url }, { apiKey });
    expect(response.body.results.media).toMatchObject({ type: 'IMAGE', width: 640, height: 640, status: 'ready' });
  });

  it('a 9 MiB video: three parts to their pre-signed URLs without the token, the ETags in order to finalizeUpload, then ready', async () => {
    const { userId, token, owner } = await mediaUser();
    const bytes = sampleMp4(9 * 1024 * 1024);
    const uploadId = await mediaUpload(userId, bytes, 'video', 'video/mp4');
    const started = await call(MEDIA, { userId, uploadId, name: 'Teaser' }, { apiKey });
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { jobId } = started.body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({
      type: 'ad_media',
      status: 'succeeded',
      progress: { bytesSent: bytes.length, totalBytes: bytes.length, chunksSent: 3, processing: { status: 'ready' } },
      result: { media: { type: 'VIDEO', id: expect.stringMatching(/^urn:li:video:/), status: 'ready' } },
    });
    const urn = job.result?.media.id;

    const withToken = await upstreamRequestsWith('professional', token);
    const initialize = withToken.find((request) => request.path === '/rest/videos' && request.query.action === 'initializeUpload');
    expect(JSON.parse(initialize?.body ?? '{}')).toEqual({
      initializeUploadRequest: { owner, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false },
    });
    // the parts carry no token: found by the video's key in their path
    const key = (urn as string).replace('urn:li:video:', '');
    const all = (await (await fetch(`${stack().sandboxes.professional}/__sandbox/requests?includes=`)).json()) as Array<{
      method: string;
      path: string;
      headers: Record<string, string>;
      binary?: { bytes: number; sha256: string };
    }>;
    const parts = all.filter((request) => request.method === 'PUT' && request.path.includes(key));
    // each part is its slice of the file (the sandbox keeps a body that is not text by size and digest)
    const slice = (index: number) => bytes.subarray(index * VIDEO_PART_BYTES, (index + 1) * VIDEO_PART_BYTES);
    expect(parts.map((request) => [request.path.split('/').pop(), request.headers['content-length'], request.headers.authorization, request.binary])).toEqual(
      [0, 1, 2].map((index) => [String(index), String(slice(index).length), undefined, { bytes: slice(index).length, sha256: sha256(slice(index)) }]),
    );
    const finalize = withToken.find((request) => request.path === '/rest/videos' && request.query.action === 'finalizeUpload');
    const finalizeBody = JSON.parse(finalize?.body ?? '{}');
    expect(finalizeBody).toEqual({
      finalizeUploadRequest: { video: urn, uploadToken: '', uploadedPartIds: [expect.any(String), expect.any(String), expect.any(String)] },
    });
    expect(finalizeBody.finalizeUploadRequest.uploadedPartIds[0]).toMatch(/^\/AQSandboxEtag0/);
    expect(await stored(urn)).toMatchObject({ owner, sha256: sha256(bytes), parts: 3 });
    const events = await eventually(async () => (eventsOf(jobId).length > 0 ? eventsOf(jobId) : undefined));
    expect(events).toMatchObject([{ type: 'ad_media.ready', data: { jobId, type: 'ad_media', status: 'succeeded', result: job.result } }]);
  });

  it('a video at a URL: the job streams it into the bucket, then sends its parts and finalizes; the same bytes on the platform', async () => {
    const { userId, owner } = await mediaUser();
    const size = 5 * 1024 * 1024; // two parts
    const started = await call(MEDIA, { userId, url: `${stack().sandboxes.professional}/__sandbox/sample.mp4?bytes=${size}` }, { apiKey });
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: size, totalBytes: size, chunksSent: 2 } });
    expect(await stored(job.result?.media.id)).toMatchObject({ owner, sha256: sha256(sampleMp4(size)), parts: 2 });
  });

  it('a part refused after the upload URLs expired: the upload starts over with a new initializeUpload, and the video arrives whole', async () => {
    const { userId, owner } = await mediaUser({ seconds: 0, urlSeconds: 1 });
    const bytes = sampleMp4(9 * 1024 * 1024);
    const uploadId = await mediaUpload(userId, bytes, 'video', 'video/mp4');
    // the second part waits two seconds at the platform: by then the first upload's URLs (one second) have expired
    await fetch(`${stack().sandboxes.professional}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathIncludes: 'uploadedVideo/1', method: 'PUT', delayMs: 2_000, times: 1 }),
    });
    const started = await call(MEDIA, { userId, uploadId }, { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: bytes.length, chunksSent: 3 } });
    const urn = job.result?.media.id as string;
    expect(await stored(urn)).toMatchObject({ owner, sha256: sha256(bytes), parts: 3 });
    const initializes = (
      (await (await fetch(`${stack().sandboxes.professional}/__sandbox/requests?includes=${encodeURIComponent(owner)}`)).json()) as Array<{
        path: string;
        query: Record<string, string>;
      }>
    ).filter((request) => request.path === '/rest/videos' && request.query.action === 'initializeUpload');
    expect(initializes).toHaveLength(2);
  });

  it('processing the platform fails ends the job MEDIA_PROCESSING_FAILED with the platform’s reason', async () => {
    const { userId } = await mediaUser({ seconds: 0, error: 'Video duration is below the minimum of 3 seconds' });
    const uploadId = await mediaUpload(userId, sampleMp4(200_000), 'video', 'video/mp4');
    const { jobId } = (await call(MEDIA, { userId, uploadId }, { apiKey })).body.results;
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({
      status: 'failed',
      error: { code: 'MEDIA_PROCESSING_FAILED', message: expect.stringContaining('below the minimum of 3 seconds') },
    });
  });

  it('without w_organization_social: SCOPE_MISSING naming it, before any call when the grant is known, on the platform’s 403 otherwise', async () => {
    const refused = await mediaUser(undefined, 'NOORGSOCIAL');
    const image = await mediaUpload(refused.userId, samplePng(50, 50), 'image', 'image/png');
    const answer = await call(MEDIA, { userId: refused.userId, uploadId: image }, { apiKey });
    expect(answer.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'w_organization_social' });

    const known = await mediaUser();
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const user = await findUser(tenantId, known.userId);
    await saveConnectionHealth(user as NonNullable<typeof user>, 'professional', { scopes: 'r_ads rw_ads rw_dmp_segments r_ads_reporting' });
    const uploadId = await mediaUpload(known.userId, samplePng(50, 50), 'image', 'image/png');
    const before = await call(MEDIA, { userId: known.userId, uploadId }, { apiKey });
    expect(before.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'w_organization_social' });
    expect(before.body.results.error).toContain('/auth/create_link');
    expect(await upstreamRequestsWith('professional', known.token)).toEqual([]);
  });

  it('one upload sent to both platforms makes each platform’s own media: an image and a video, in either order, never the other’s id', async () => {
    const { token, adAccountId } = await mediaUser();
    const socialToken = `EAAboth${randomBytes(10).toString('hex')}`;
    const socialAccount = `9${String(Date.now()).slice(-8)}${String(accounts).padStart(6, '0')}`;
    const userId = await newUser(apiKey, {
      professional: { accessToken: token, adAccountId },
      social: { accessToken: socialToken, adAccountId: socialAccount, pageId: DEMO_CONNECTIONS.social.pageId },
    });
    await fetch(`${stack().sandboxes.social}/__sandbox/video-processing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: socialAccount, seconds: 0 }),
    });
    const image = await mediaUpload(userId, samplePng(640, 640), 'image', 'image/png');
    const social = await call('/social/upload_ad_media', { userId, uploadId: image }, { apiKey });
    expect(social.body.results.media.id, social.text).toMatch(/^[0-9a-f]{32}$/);
    const professional = await call(MEDIA, { userId, uploadId: image }, { apiKey });
    expect(professional.body.results.media.id, professional.text).toMatch(/^urn:li:image:/);
    // each platform got the file once; a repeat on either answers its own again
    expect((await call('/social/upload_ad_media', { userId, uploadId: image }, { apiKey })).body.results.media).toEqual(social.body.results.media);
    expect((await call(MEDIA, { userId, uploadId: image }, { apiKey })).body.results.media).toEqual(professional.body.results.media);
    const professionalImages = (await upstreamRequestsWith('professional', token)).filter((request) => request.query.action === 'initializeUpload');
    expect(professionalImages).toHaveLength(1);

    // a video the other way round: professional first, then social, two jobs, each ready on its platform
    const video = await mediaUpload(userId, sampleMp4(1024 * 1024), 'video', 'video/mp4');
    const first = await call(MEDIA, { userId, uploadId: video }, { apiKey });
    const firstJob = (await jobToEnd(apiKey, first.body.results.jobId)).job;
    expect(firstJob.status, JSON.stringify(firstJob)).toBe('succeeded');
    const second = await call('/social/upload_ad_media', { userId, uploadId: video }, { apiKey });
    expect(second.body.results.jobId).not.toBe(first.body.results.jobId);
    const secondJob = (await jobToEnd(apiKey, second.body.results.jobId)).job;
    expect(secondJob.status, JSON.stringify(secondJob)).toBe('succeeded');
    expect((firstJob.result as { media: { id: string } }).media.id).toMatch(/^urn:li:video:/);
    expect((secondJob.result as { media: { id: string } }).media.id).toMatch(/^\d+$/);
  }, 60_000);
});
