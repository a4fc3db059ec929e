import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleMp4, samplePng } from '../../local/sandbox/sample-media.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';
import { newSocialUser } from '../helpers/social.ts';
import { jobToEnd, putFile, uploaded } from '../helpers/uploads.ts';

/**
 * Images into a user's social ad account (docs/decisions.md, "Media into an ad account"): from an upload
 * made for an image, or from a URL; the kind read from the bytes; one platform image per upload.
 */
const MEDIA = '/social/upload_ad_media';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** A user of the social sandbox on an ad account of its own, so its images are the only ones there. */
const mediaUser = () => newSocialUser(apiKey, { adAccountId: `7${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}` });

/** An upload made for an image, its bytes PUT with the type it was signed for: its uploadId. */
async function imageUpload(userId: string, bytes: Buffer, contentType = 'image/png'): Promise<string> {
  const ticket = await call('/uploads/create_upload', { userId, fileName: 'hero.png', contentLength: bytes.length, purpose: 'image', contentType }, { apiKey });
  expect(ticket.status, ticket.text).toBe(200);
  expect(ticket.body.results.headers).toEqual({ 'content-type': contentType, 'content-length': String(bytes.length) });
  const put = await putFile(ticket.body.results, bytes);
  expect(put.status).toBe(200);
  return ticket.body.results.uploadId;
}

const sent = async (token: string) =>
  (await upstreamRequestsWith('social', token)).filter((request) => request.method === 'POST' && request.path.endsWith('/adimages'));

describe('create_upload for media', () => {
  it('signs the PUT with the image’s type: a body of another type is refused by storage', async () => {
    const { userId } = await mediaUser();
    const bytes = samplePng(40, 20);
    const ticket = await call(
      '/uploads/create_upload',
      { userId, fileName: 'a.png', contentLength: bytes.length, purpose: 'image', contentType: 'image/png' },
      { apiKey },
    );
    const wrongType = await fetch(ticket.body.results.url, {
      method: 'PUT',
      headers: { ...ticket.body.results.headers, 'content-type': 'text/csv' },
      body: bytes,
    });
    expect(wrongType.status).toBe(403);
  });

  it.each([
    [{ purpose: 'image' }, 'contentType'],
    [{ purpose: 'image', contentType: 'video/mp4' }, 'contentType'],
    [{ purpose: 'contact_list', contentType: 'image/png' }, 'contentType'],
    [{ purpose: 'image', contentType: 'image/png', contentLength: 31_457_281 }, 'contentLength'],
    [{ purpose: 'sticker', contentType: 'image/png' }, 'purpose'],
  ])('refuses %j (%s) with nothing stored', async (fields, path) => {
    const userId = await newUser(apiKey);
    const response = await call('/uploads/create_upload', { userId, fileName: 'x', contentLength: 100, ...fields }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('an image upload is no contact list: an audience given it is refused before anything is sent', async () => {
    const { userId, token } = await mediaUser();
    const uploadId = await imageUpload(userId, samplePng(30, 30));
    const response = await call('/social/create_social_csv_audience', { userId, audienceName: 'Wrong file', uploadId }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringContaining('an image') });
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });
});

describe('upload_ad_media (social)', () => {
  it('an uploaded PNG becomes an ad image: its hash, size and status at once, listed by get_ad_account_media, audited', async () => {
    const { userId, token } = await mediaUser();
    const bytes = samplePng(1200, 628);
    const uploadId = await imageUpload(userId, bytes);
    const response = await call(MEDIA, { userId, uploadId, name: 'Spring hero' }, { apiKey });
    expect(response.status, response.text).toBe(200);
    const hash = createHash('md5').update(bytes).digest('hex');
    expect(response.body.results.media).toMatchObject({
      type: 'IMAGE',
      id: hash,
      width: 1200,
      height: 628,
      status: 'ready',
      url: expect.stringContaining(hash),
    });
    // what went upstream: the file's own bytes, base64, with its name
    const [upload, ...more] = await sent(token);
    expect(more).toEqual([]);
    expect(upload?.path).toMatch(/^\/v26\.0\/act_7\d{14}\/adimages$/);
    const body = JSON.parse(upload?.body ?? '{}');
    expect(Buffer.from(body.bytes, 'base64').equals(bytes)).toBe(true);
    expect(body.name).toBe('Spring hero');
    const listed = await call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });
    expect(listed.body.results.media.map((image: { url: string }) => image.url)).toContain(response.body.results.media.url);
    const events = await call('/tenant/list_audit_events', { userId, action: 'ad_media.uploaded' }, { apiKey });
    expect(events.body.results.events).toEqual([
      expect.objectContaining({ action: 'ad_media.uploaded', target: { type: 'media', id: hash }, outcome: 'succeeded', platform: 'social', userId }),
    ]);
  });

  it('the same upload sent again, and twice at once: one platform image, the same answer, one audit event', async () => {
    const { userId, token } = await mediaUser();
    const uploadId = await imageUpload(userId, samplePng(600, 600));
    const answers = await Promise.all([call(MEDIA, { userId, uploadId }, { apiKey }), call(MEDIA, { userId, uploadId }, { apiKey })]);
    const again = await call(MEDIA, { userId, uploadId }, { apiKey });
    for (const answer of [...answers, again]) expect(answer.body.results.media).toEqual(answers[0]?.body.results.media);
    expect(await sent(token)).toHaveLength(1);
    const events = await call('/tenant/list_audit_events', { userId, action: 'ad_media.uploaded' }, { apiKey });
    expect(events.body.results.events).toHaveLength(1);
  });

  it('an image from a URL (the local stack allows loopback http)', async () => {
    const { userId, token } = await mediaUser();
    const url = `${stack().sandboxes.social}/__sandbox/sample.png?width=800&height=800`;
    const response = await call(MEDIA, { userId, url }, { apiKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results.media).toMatchObject({ type: 'IMAGE', width: 800, height: 800, status: 'ready' });
    expect(await sent(token)).toHaveLength(1);
  });

  it('a file that is no image or video by its first bytes is UNSUPPORTED_MEDIA, whatever its declared type, and nothing is sent', async () => {
    const { userId, token } = await mediaUser();
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
    const uploadId = await imageUpload(userId, pdf, 'image/jpeg');
    const response = await call(MEDIA, { userId, uploadId }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results).toMatchObject({ code: 'UNSUPPORTED_MEDIA', error: expect.stringContaining('first bytes') });
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
    // the refusal wrote nothing: no audit event
    const events = await call('/tenant/list_audit_events', { userId }, { apiKey });
    expect(events.body.results.events.filter((event: { action: string }) => event.action === 'ad_media.uploaded')).toEqual([]);
  });

  it('a video at a URL is a job: the file streamed into the bucket, then to the platform in its chunks, ready; the same bytes', async () => {
    const { userId, token } = await mediaUser();
    const account = (await call('/users/get_profile', { userId }, { apiKey })).body.results;
    const adAccountId = String(JSON.stringify(account).match(/"adAccountId":"(\d+)"/)?.[1]);
    await fetch(`${stack().sandboxes.social}/__sandbox/video-processing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: adAccountId, seconds: 0 }),
    });
    const size = Math.round(2.5 * 1024 * 1024);
    const started = await call(MEDIA, { userId, url: `${stack().sandboxes.social}/__sandbox/sample.mp4?bytes=${size}`, name: 'From a URL' }, { apiKey });
    expect(started.status, started.text).toBe(200);
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'succeeded', progress: { bytesSent: size, totalBytes: size } });
    const videoId = (job.result as { media: { id: string } }).media.id;
    const video = (await (await fetch(`${stack().sandboxes.social}/__sandbox/videos/${videoId}`)).json()) as { bytes: number; sha256: string };
    expect(video).toMatchObject({ bytes: size, sha256: createHash('sha256').update(sampleMp4(size)).digest('hex') });
    const transfers = (await upstreamRequestsWith('social', token)).filter((request) => request.body.includes('upload_phase=transfer'));
    expect(transfers.length).toBe(3);
  });

  it('a URL whose bytes are no image or video is UNSUPPORTED_MEDIA, and nothing is sent', async () => {
    const { userId, token } = await mediaUser();
    const response = await call(MEDIA, { userId, url: `${stack().sandboxes.social}/__sandbox/requests?count=1` }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('UNSUPPORTED_MEDIA');
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it.each([
    // exactly one of two fields: the object itself is named
    [{}, ''],
    [{ uploadId: 'upl_x', url: 'https://example.com/a.png' }, ''],
    [{ url: 'ftp://example.com/a.png' }, 'url'],
    [{ url: 'https://example.com/a.png', extra: 1 }, ''],
  ])('refuses %j before anything is sent', async (fields, path) => {
    const { userId, token } = await mediaUser();
    const response = await call(MEDIA, { userId, ...fields }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it('a URL to a private address is refused; an upload of another user is 404; a contact list is refused', async () => {
    const { userId, token } = await mediaUser();
    const privateUrl = await call(MEDIA, { userId, url: 'https://10.0.0.7/hero.png' }, { apiKey });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.results.error).toContain('public internet address');
    const other = await mediaUser();
    const theirs = await imageUpload(other.userId, samplePng(20, 20));
    expect((await call(MEDIA, { userId, uploadId: theirs }, { apiKey })).status).toBe(404);
    const list = await uploaded(apiKey, userId, 'email\na@example.com\n');
    const contactList = await call(MEDIA, { userId, uploadId: list }, { apiKey });
    expect(contactList.status).toBe(400);
    expect(contactList.body.results.error).toContain('a contact list');
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it('a GIF, which the platform does not take for ads, comes back as the platform’s refusal, audited as failed', async () => {
    const { userId } = await mediaUser();
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const uploadId = await imageUpload(userId, gif, 'image/gif');
    const response = await call(MEDIA, { userId, uploadId }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED' });
    const events = await call('/tenant/list_audit_events', { userId, action: 'ad_media.uploaded' }, { apiKey });
    expect(events.body.results.events).toEqual([expect.objectContaining({ outcome: 'failed', error: { code: 'PLATFORM_REJECTED' } })]);
    // the refusal let the upload go: it can be sent again
    expect((await call(MEDIA, { userId, uploadId }, { apiKey })).body.results.code).toBe('PLATFORM_REJECTED');
  });
});
