import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { config } from '../../core/config.ts';
import { PlatformRejected } from '../../core/errors.ts';
import { callPlatform, ok, parseJson, retry, type UpstreamResponse, type Verdict } from '../upstream.ts';
import { classifyGraphResponse, type GraphResult, graphRequest, signedParams, type SocialSession } from './client.ts';

/**
 * A video into an ad account by the resumable upload (docs/platforms.md, "Social: videos"): phases
 * start, transfer (repeated) and finish, all on the video host, each a multipart POST to
 * `act_{id}/advideos`. The platform names the byte range it wants next; offsets come as numeric strings
 * (or, in an offset error, numbers): both are read.
 */

/** The range the platform wants next: [start, end). Equal offsets: it has the whole file. */
export interface WantedRange {
  start: number;
  end: number;
}

export interface VideoUploadSession extends WantedRange {
  sessionId: string;
  videoId: string;
}

/** A transfer's answer: the next range, or the platform's correction of our offset (1363037). */
export type TransferAnswer = WantedRange & { corrected: boolean };

const OFFSET_MISMATCH = 1363037;
const UPLOAD_PROBLEM = new Set([6000, 6001]);

const offsetOf = (value: unknown): number => {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 0) throw new PlatformRejected('social', 'The platform answered the video upload with no usable offset.');
  return number;
};

const rangeOf = (body: { start_offset?: unknown; end_offset?: unknown }): WantedRange => ({
  start: offsetOf(body.start_offset),
  end: offsetOf(body.end_offset),
});

/** A Graph answer's body, or its error as the client classifies it. */
const bodyOf = <T>(verdict: Verdict<GraphResult<T>>): Verdict<T> => (verdict.outcome === 'ok' ? ok(verdict.value.body) : verdict);

/** One phase on the video host. Only the transfer of a range is safe to repeat (the platform checks the offset). */
function videoPhase<T>(
  session: SocialSession,
  adAccountId: string,
  fields: Record<string, string>,
  options: { chunk?: Uint8Array; retrySafe: boolean; classify?: (response: UpstreamResponse) => Verdict<T> | undefined },
): Promise<T> {
  const path = `act_${adAccountId}/advideos`;
  const url = `${config().SOCIAL_VIDEO_API_URL.replace(/\/+$/, '')}/${path}`;
  return callPlatform(session, {
    platform: 'social',
    request: () => {
      const params = Object.entries(signedParams(fields, session.accessToken)).map(([name, value]): [string, string] => [name, String(value)]);
      if (!options.chunk) {
        const form = new FormData();
        for (const [name, value] of params) form.set(name, value);
        return { url, init: { method: 'POST', body: form }, logPath: `/${path} ${fields.upload_phase}` };
      }
      const { contentType, length, parts } = multipartWithFile(params, 'video_file_chunk', options.chunk);
      // the chunk goes out as it is, not copied into a form's blob: one chunk in memory, not three
      const body = Readable.toWeb(Readable.from(parts)) as ReadableStream;
      return {
        url,
        init: { method: 'POST', body, headers: { 'content-type': contentType, 'content-length': String(length) }, duplex: 'half' } as RequestInit,
        logPath: `/${path} ${fields.upload_phase}`,
      };
    },
    classify: (response) =>
      options.classify?.(response) ?? bodyOf(classifyGraphResponse<T>(response, { retrySafe: options.retrySafe, accessToken: session.accessToken })),
    retrySafe: options.retrySafe,
    secrets: () => [session.accessToken],
  });
}

/**
 * A multipart/form-data body of text fields and one file, as the parts to send in order (the file's
 * bytes as they are) and its length. Written here rather than with FormData, whose file part is a
 * Blob: a copy of every chunk, and another as it is serialised.
 */
export function multipartWithFile(fields: Array<[string, string]>, fileField: string, file: Uint8Array) {
  const boundary = `----adcampaignapi${randomBytes(12).toString('hex')}`;
  const quoted = (name: string) => name.replace(/["\r\n]/g, (char) => encodeURIComponent(char));
  const head = Buffer.from(
    `${fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join('')}` +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(fileField)}"; filename="chunk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, length: head.length + file.length + tail.length, parts: [head, file, tail] };
}

/** start: the session, the video's id and the first range. Not repeated blind: a lost answer leaves an unused session. */
export async function startVideoUpload(session: SocialSession, adAccountId: string, fileSize: number): Promise<VideoUploadSession> {
  const body = await videoPhase<{ upload_session_id?: unknown; video_id?: unknown; start_offset?: unknown; end_offset?: unknown }>(
    session,
    adAccountId,
    { upload_phase: 'start', file_size: String(fileSize) },
    { retrySafe: false },
  );
  if (body.upload_session_id === undefined || body.video_id === undefined)
    throw new PlatformRejected('social', 'The platform did not open a video upload session.');
  return { sessionId: String(body.upload_session_id), videoId: String(body.video_id), ...rangeOf(body) };
}

/**
 * transfer: the bytes of the range the platform asked for. The same offset may be sent again (a
 * timeout, a transient error): the platform takes a range once and names the next. An offset it does
 * not expect is answered with the one it does (`corrected`).
 */
export async function transferVideoChunk(
  session: SocialSession,
  adAccountId: string,
  sessionId: string,
  startOffset: number,
  chunk: Uint8Array,
): Promise<TransferAnswer> {
  return videoPhase<TransferAnswer>(
    session,
    adAccountId,
    { upload_phase: 'transfer', upload_session_id: sessionId, start_offset: String(startOffset) },
    {
      chunk,
      retrySafe: true,
      classify: (response) => {
        const body = parseJson(response.text) as
          | { start_offset?: unknown; end_offset?: unknown; error?: { code?: number; error_subcode?: number; error_data?: unknown } }
          | undefined;
        const error = body?.error;
        if (!error && response.status < 400 && body) return ok({ ...rangeOf(body), corrected: false });
        if (error?.error_subcode === OFFSET_MISMATCH) {
          // error_data may come as an object or as a JSON string
          const data = typeof error.error_data === 'string' ? parseJson(error.error_data) : error.error_data;
          return ok({ ...rangeOf((data ?? {}) as { start_offset?: unknown; end_offset?: unknown }), corrected: true });
        }
        const verdict = bodyOf(classifyGraphResponse<TransferAnswer>(response, { retrySafe: true, accessToken: session.accessToken }));
        // "a problem uploading your video": the same range is worth another try before the file is given up
        return verdict.outcome === 'fail' && UPLOAD_PROBLEM.has(Number(error?.code)) ? retry(verdict.error) : verdict;
      },
    },
  );
}

/** finish: the platform begins processing. A lost answer is read back (the status) before it is sent again. */
export async function finishVideoUpload(session: SocialSession, adAccountId: string, sessionId: string, title?: string): Promise<void> {
  const body = await videoPhase<{ success?: boolean }>(
    session,
    adAccountId,
    { upload_phase: 'finish', upload_session_id: sessionId, ...(title ? { title } : {}) },
    { retrySafe: false },
  );
  if (body.success !== true) throw new PlatformRejected('social', 'The platform did not accept the end of the video upload.');
}

export interface VideoStatus {
  /** ready | processing | error (upload_failed, expired: error too) */
  status: 'ready' | 'processing' | 'error';
  /** whether the platform has the whole file (its uploading phase is complete) */
  uploaded: boolean;
  /** the upload session ended before the file was whole: the video will never be (`video_status: expired`) */
  expired: boolean;
  percent?: number;
  /** the platform's reason when processing failed */
  reason?: string;
}

interface GraphVideoStatus {
  video_status?: string;
  processing_progress?: number;
  uploading_phase?: { status?: string };
  processing_phase?: { status?: string; errors?: Array<{ code?: number; message?: string }> };
}

/** `GET /{video_id}?fields=status`: where processing is. */
export async function videoStatus(session: SocialSession, videoId: string): Promise<VideoStatus> {
  const { body } = await graphRequest<{ status?: GraphVideoStatus }>(session, 'GET', videoId, { fields: 'status' });
  const status = body.status ?? {};
  const failed = status.video_status === 'error' || status.video_status === 'upload_failed' || status.video_status === 'expired';
  const reason = status.processing_phase?.errors?.find((error) => error.message)?.message;
  return {
    status: failed || status.processing_phase?.status === 'error' ? 'error' : status.video_status === 'ready' ? 'ready' : 'processing',
    uploaded: status.uploading_phase?.status === 'complete' || status.video_status === 'ready',
    expired: status.video_status === 'expired',
    ...(typeof status.processing_progress === 'number' ? { percent: status.processing_progress } : {}),
    ...(failed || reason ? { reason: reason ?? `The platform reports the video as ${status.video_status ?? 'failed'}.` } : {}),
  };
}
