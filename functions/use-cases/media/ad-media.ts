import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { type Answer, type AuditUnit, answerOf, likewise, unchanged } from '../../../shared/core/audit.ts';
import { Conflict, PlatformRejected } from '../../../shared/core/errors.ts';
import { clock } from '../../../shared/core/clock.ts';
import { type ImageFile, imageFile, mediaAtUrl, readUploadedMedia, tooLargeForAnImage, unsupported, uploadedKind } from '../../../shared/media/source.ts';
import { MAX_IMAGE_BYTES } from '../../../shared/media/kinds.ts';
import { uploadAdImage } from '../../../shared/platforms/social/ad-account-media.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { accountOrganization, checkOrganizationScope, mediaStatus, uploadImage } from '../../../shared/platforms/professional/media.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { budgetFrom } from '../../../shared/platforms/upstream.ts';
import { claimUpload, findUpload, mediaSlot, releaseUpload, saveUploadMedia, uploadMedia } from '../../../shared/store/uploads.ts';
import type { User } from '../../../shared/store/users.ts';
import { findCompletedUpload } from '../../../shared/uploads/direct-uploads.ts';
import type { JobStatus } from '../../../shared/store/jobs.ts';
import type { MediaCheckpoint, MediaJobRequest } from './video-upload.ts';
import { jobOfUpload, newJob, startJob, startUploadJob } from '../jobs/start-job.ts';

/**
 * upload_ad_media (docs/decisions.md, "Media into an ad account"): an image of the user's upload or at
 * a URL into their ad account. The kind comes from the file's first bytes, so a file that is no image
 * or video is refused before anything is sent. An upload makes one platform object per (platform, ad
 * account) however often it is sent there: the first call claims that slot of it and keeps what the
 * platform made on it; a later call to the same place answers that (docs/decisions.md, "Media per
 * platform and account").
 */
export interface AdMediaRequest {
  userId: string;
  uploadId?: string;
  url?: string;
  name?: string;
}

export interface AdMedia {
  type: 'IMAGE';
  id: string;
  url?: string;
  width: number;
  height: number;
  status: 'ready' | 'processing';
}

interface MediaCall {
  tenantId: string;
  user: User;
  input: AdMediaRequest;
  context: Context;
  audit: AuditUnit;
}

/** How long a call waits for another call that holds the same upload to finish (real time: it waits on another request). */
const CONCURRENT_WAIT_MS = 10_000;
const POLL_MS = 100;

/** A video's answer: its job, which sends it and follows its processing. */
export interface MediaJobStarted {
  jobId: string;
  status: JobStatus;
}

/** Where the media goes: the platform, the ad account, and how an image is sent there. */
interface MediaTarget {
  platform: MediaJobRequest['platform'];
  adAccountId: string;
  sendImage: (image: ImageFile) => Promise<AdMedia>;
}

export function uploadSocialAdMedia(call: MediaCall): Promise<Answer<{ media: AdMedia } | MediaJobStarted>> {
  const session = socialSession(call.user, call.context); // a user without a social connection is a 409
  const adAccountId = session.connection.adAccountId;
  return uploadAdMedia(call, {
    platform: 'social',
    adAccountId,
    sendImage: async (image) => {
      const { hash, url } = await uploadAdImage(session, adAccountId, image.bytes, call.input.name);
      return { type: 'IMAGE', id: hash, ...(url ? { url } : {}), width: image.width, height: image.height, status: 'ready' };
    },
  });
}

/**
 * The professional network: media belong to the organization the ad account advertises for, which the
 * member must be allowed to post for (w_organization_social). An image is `processing` until the
 * platform says AVAILABLE.
 */
export function uploadProfessionalAdMedia(call: MediaCall): Promise<Answer<{ media: AdMedia } | MediaJobStarted>> {
  const session = professionalSession(call.user, call.context); // a user without a professional connection is a 409
  checkOrganizationScope(call.user.connections.professional?.scopes);
  return uploadAdMedia(call, {
    platform: 'professional',
    adAccountId: session.adAccountId,
    sendImage: async (image) => {
      const owner = await accountOrganization(session, session.adAccountId);
      const urn = await uploadImage(session, session.adAccountId, owner, image.bytes, call.input.name);
      const { status, reason } = await mediaStatus(session, urn);
      if (status === 'PROCESSING_FAILED')
        throw new PlatformRejected('professional', `The platform could not process the image: ${reason ?? 'no reason given'}`);
      return { type: 'IMAGE', id: urn, width: image.width, height: image.height, status: status === 'AVAILABLE' ? 'ready' : 'processing' };
    },
  });
}

async function uploadAdMedia(call: MediaCall, target: MediaTarget): Promise<Answer<{ media: AdMedia } | MediaJobStarted>> {
  if (call.input.url !== undefined) {
    const media = await mediaAtUrl(call.input.url, budgetFrom(call.context));
    if (media.type === 'VIDEO') return startUrlVideoJob(call, target, call.input.url);
    return { media: await target.sendImage(media.image) };
  }
  const uploadId = call.input.uploadId as string;
  const slot = mediaSlot(target.platform, target.adAccountId);
  // a video's upload already has its job here (finished or not: a succeeded job's file is gone)
  const job = await jobOfUpload({ tenantId: call.tenantId, user: call.user, uploadId, slot });
  if (job) return unchanged({ jobId: job.jobId, status: job.status }); // the call that started it recorded it
  const upload = await findCompletedUpload(call.tenantId, call.user.userId, uploadId, ['image', 'video']);
  const made = uploadMedia(upload, slot);
  if (made) return unchanged({ media: made as unknown as AdMedia }); // the call that made it recorded it
  // a video is known by its first bytes without reading it whole; an image is read whole
  const kind = await uploadedKind(upload);
  if (!kind) return unsupported();
  if (kind.type === 'VIDEO') return startVideoJob(call, target, slot);
  if (upload.contentLength > MAX_IMAGE_BYTES) return tooLargeForAnImage();
  const media = await fromUploadOnce(call, slot, (bytes) => target.sendImage(imageFile(bytes)));
  return likewise(media, { media: answerOf(media) });
}

/** A video goes in as a job (chunks, then processing): one job per upload. */
async function startVideoJob(call: MediaCall, target: MediaTarget, slot: string): Promise<Answer<MediaJobStarted>> {
  const start = { tenantId: call.tenantId, user: call.user, context: call.context, uploadId: call.input.uploadId as string, audit: call.audit, slot };
  const started = await startUploadJob({ ...start, purposes: ['image', 'video'] }, async (jobId, upload) => ({
    job: newJob<MediaJobRequest, MediaCheckpoint>(jobId, start, upload, 'ad_media', 'queued', {
      request: {
        objectKey: upload.objectKey,
        ...(upload.etag ? { etag: upload.etag } : {}),
        platform: target.platform,
        adAccountId: target.adAccountId,
        ...(call.input.name ? { name: call.input.name } : {}),
      },
      checkpoint: { polls: 0 },
    }),
  }));
  const job = answerOf(started);
  return likewise(started, { jobId: job.jobId, status: job.status });
}

/**
 * A video at a URL is a job whose first step streams the file into the bucket (a gigabyte does not
 * fit in a request); then it goes on as an uploaded video. An Idempotency-Key makes a repeat the same job.
 */
function startUrlVideoJob(call: MediaCall, target: MediaTarget, url: string): Promise<MediaJobStarted> {
  return startJob(call, {
    type: 'ad_media',
    request: {
      objectKey: '',
      sourceUrl: url,
      platform: target.platform,
      adAccountId: target.adAccountId,
      ...(call.input.name ? { name: call.input.name } : {}),
    },
    checkpoint: { polls: 0 },
  });
}

/** The upload's image in `slot`, made once: claimed, sent, kept on the upload; a call that finds it made answers it. */
async function fromUploadOnce(call: MediaCall, slot: string, send: (bytes: Buffer) => Promise<AdMedia>): Promise<Answer<AdMedia>> {
  const { tenantId, user, input } = call;
  const uploadId = input.uploadId as string;
  const upload = await findCompletedUpload(tenantId, user.userId, uploadId, ['image', 'video']);
  const holder = `media_${randomBytes(12).toString('hex')}`;
  const waitUntil = performance.now() + CONCURRENT_WAIT_MS;
  while ((await claimUpload(tenantId, uploadId, holder, slot)) !== holder) {
    const stored = await findUpload(tenantId, uploadId);
    const made = stored && uploadMedia(stored, slot);
    if (made) return unchanged(made as unknown as AdMedia); // the request that sent it recorded it
    if (performance.now() > waitUntil) throw new Conflict(`Another request is sending upload ${uploadId}; retry in a few seconds to get its media.`);
    await clock.sleep(POLL_MS);
  }
  try {
    const media = await send(await readUploadedMedia(upload));
    await saveUploadMedia(tenantId, uploadId, slot, holder, media as unknown as Record<string, unknown>);
    return media;
  } catch (error) {
    await releaseUpload(tenantId, uploadId, holder, slot);
    throw error;
  }
}
