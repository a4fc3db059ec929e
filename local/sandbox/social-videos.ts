import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clock } from '../../shared/core/clock.ts';
import { type MediaProcessing, mediaProcessingOf, mediaProcessingUsage } from './media-processing.ts';
import type { SandboxResponse } from './server.ts';
import { type GraphCall, type GraphHandler, graphError, usageHeaders, withHeaders } from './social-graph.ts';

/**
 * The social sandbox's resumable video upload (docs/platforms.md, "Social: videos"): `POST
 * act_{id}/advideos` on the video host with `upload_phase` start, transfer and finish, multipart. The
 * sandbox names ranges of 1 MiB (offsets as numeric strings), takes exactly the range it named (another
 * offset is 6001/1363037 with the offsets it wants, as JSON numbers), and processes a finished video over
 * clock time: `GET /{video_id}?fields=status` goes processing → ready. How long processing takes, and
 * whether it fails, is set per ad account (`POST /__sandbox/video-processing`).
 *
 * An upload session lives SESSION_LIFETIME_MS (the platform does not say how long: hours, assumed), or
 * the `sessionSeconds` set for the account's next session. Past it, the session is gone: a transfer or
 * finish is answered as for an unknown session, and the video's status reads `expired`.
 */
export const VIDEO_CHUNK_BYTES = 1024 * 1024;
/** processing time when an account has no setting */
const DEFAULT_PROCESSING_SECONDS = 20;
const MAX_VIDEO_BYTES = 4 * 1024 ** 3;
const SESSION_LIFETIME_MS = 6 * 3600_000;

/** processing time, the message it fails with, and how long the account's next upload session lives (once) */
export type VideoProcessing = MediaProcessing<'sessionSeconds'>;

interface UploadSession {
  account: string;
  videoId: string;
  fileSize: number;
  /** epoch ms; absent in a state saved before sessions expired: such a session never does */
  expiresAt?: number;
}

interface UploadedVideo {
  account: string;
  videoId: string;
  bytes: number;
  sha256: string;
  title?: string;
  finishedAt: number;
  processing: VideoProcessing;
}

/**
 * Kept in a folder (the local stack's data folder), so a platform upload outlives a restart of the
 * stack as a real one does: `state.json` (sessions, finished videos, settings) and one `<session>.part`
 * per open session with the bytes received, whose length is how far the session got.
 */
export interface VideoState {
  dir: string;
  sessions: Map<string, UploadSession>;
  uploaded: Map<string, UploadedVideo>;
  processing: Map<string, VideoProcessing>;
  /** the videos whose session expired before they were finished */
  expired: Set<string>;
  nextId: number;
}

const stateFile = (state: Pick<VideoState, 'dir'>) => join(state.dir, 'state.json');
const partFile = (state: Pick<VideoState, 'dir'>, sessionId: string) => join(state.dir, `${sessionId}.part`);

export function loadVideoState(dir = mkdtempSync(join(tmpdir(), 'sandbox-videos-'))): VideoState {
  mkdirSync(dir, { recursive: true });
  const state: VideoState = { dir, sessions: new Map(), uploaded: new Map(), processing: new Map(), expired: new Set(), nextId: 1 };
  if (!existsSync(stateFile(state))) return state;
  const saved = JSON.parse(readFileSync(stateFile(state), 'utf8')) as {
    sessions: Array<[string, UploadSession]>;
    uploaded: Array<[string, UploadedVideo]>;
    processing: Array<[string, VideoProcessing]>;
    expired?: string[];
    nextId: number;
  };
  return {
    dir,
    sessions: new Map(saved.sessions),
    uploaded: new Map(saved.uploaded),
    processing: new Map(saved.processing),
    expired: new Set(saved.expired ?? []),
    nextId: saved.nextId,
  };
}

function saveVideoState(state: VideoState): void {
  const temporary = `${stateFile(state)}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    JSON.stringify({
      sessions: [...state.sessions],
      uploaded: [...state.uploaded],
      processing: [...state.processing],
      expired: [...state.expired],
      nextId: state.nextId,
    }),
  );
  renameSync(temporary, stateFile(state)); // whole or not at all, whenever the process dies
}

/** How many bytes a session has: what its part file holds. */
const receivedOf = (state: VideoState, sessionId: string) => (existsSync(partFile(state, sessionId)) ? statSync(partFile(state, sessionId)).size : 0);

const offsets = (start: number, end: number) => ({ start_offset: String(start), end_offset: String(end) });
const nextEnd = (session: UploadSession, received: number) => Math.min(session.fileSize, received + VIDEO_CHUNK_BYTES);

/** Listed by `GET act_{id}/advideos` once finished (formats come when processing is done). */
type ListVideo = (account: string, row: Record<string, unknown>) => void;

export function videoUploadPhase(state: VideoState, listVideo: ListVideo): GraphHandler<unknown> {
  return (call, _social, { account }) => {
    const accountId = account as string;
    const answer = (body: Record<string, unknown>): SandboxResponse => withHeaders({ status: 200, body }, usageHeaders(accountId));
    switch (call.params.upload_phase) {
      case 'start':
        return start(state, call, accountId, answer);
      case 'transfer':
        return transfer(state, call, accountId, answer);
      case 'finish':
        return finish(state, call, accountId, answer, listVideo);
      case 'cancel': {
        const session = sessionOf(state, call, accountId);
        if ('status' in session) return session;
        state.sessions.delete(session.id);
        rmSync(partFile(state, session.id), { force: true });
        saveVideoState(state);
        return answer({ success: true });
      }
      default:
        return graphError(100, '(#100) upload_phase must be one of {start, transfer, finish, cancel}');
    }
  };
}

function start(state: VideoState, call: GraphCall, account: string, answer: (body: Record<string, unknown>) => SandboxResponse): SandboxResponse {
  const raw = String(call.params.file_size ?? '');
  if (!/^\d+$/.test(raw)) return graphError(100, '(#100) The parameter file_size is required');
  const fileSize = Number(raw);
  if (fileSize < 1024) return graphError(382, 'The video file you tried to upload is too small. Please try again with a larger file.');
  if (fileSize > MAX_VIDEO_BYTES) return graphError(100, '(#100) The video file is larger than 4 GB');
  const sessionId = String(2870011223000000 + state.nextId);
  const videoId = String(1209876543000000 + state.nextId++);
  const { sessionSeconds, ...processing } = state.processing.get(account) ?? { seconds: DEFAULT_PROCESSING_SECONDS };
  if (sessionSeconds !== undefined) state.processing.set(account, processing);
  const session: UploadSession = { account, videoId, fileSize, expiresAt: clock.now() + (sessionSeconds ?? SESSION_LIFETIME_MS / 1000) * 1000 };
  state.sessions.set(sessionId, session);
  saveVideoState(state);
  return answer({ video_id: videoId, upload_session_id: sessionId, ...offsets(0, nextEnd(session, 0)) });
}

/** A session past its time is gone: its bytes dropped, its video `expired`. */
function expireSessions(state: VideoState): void {
  let changed = false;
  for (const [id, session] of state.sessions) {
    if (session.expiresAt === undefined || clock.now() < session.expiresAt) continue;
    state.sessions.delete(id);
    state.expired.add(session.videoId);
    rmSync(partFile(state, id), { force: true });
    changed = true;
  }
  if (changed) saveVideoState(state);
}

function sessionOf(state: VideoState, call: GraphCall, account: string): (UploadSession & { id: string; received: number }) | SandboxResponse {
  expireSessions(state);
  const id = String(call.params.upload_session_id ?? '');
  const session = state.sessions.get(id);
  if (!session || session.account !== account)
    return graphError(6001, 'There was a problem uploading your video. Please try again.', { error_subcode: 1363019 });
  return { ...session, id, received: receivedOf(state, id) };
}

function transfer(state: VideoState, call: GraphCall, account: string, answer: (body: Record<string, unknown>) => SandboxResponse): SandboxResponse {
  const session = sessionOf(state, call, account);
  if ('status' in session) return session;
  const chunk = call.request.files?.video_file_chunk;
  if (!chunk) return graphError(100, '(#100) The parameter video_file_chunk is required');
  const end = nextEnd(session, session.received);
  const offset = String(call.params.start_offset ?? '');
  if (offset !== String(session.received) || chunk.length !== end - session.received) {
    // the range it wants, as numbers (as observed)
    return graphError(6001, 'There was a problem uploading your video. Please try again.', {
      error_subcode: 1363037,
      is_transient: false,
      error_user_title: 'Video Upload Error',
      error_user_msg: 'The start offset does not match the expected offset.',
      error_data: { start_offset: session.received, end_offset: end },
    });
  }
  appendFileSync(partFile(state, session.id), chunk);
  return answer(offsets(end, nextEnd(session, end)));
}

function finish(
  state: VideoState,
  call: GraphCall,
  account: string,
  answer: (body: Record<string, unknown>) => SandboxResponse,
  listVideo: ListVideo,
): SandboxResponse {
  const session = sessionOf(state, call, account);
  if ('status' in session) return session;
  if (session.received !== session.fileSize)
    return graphError(6001, `There was a problem uploading your video file: ${session.received} of ${session.fileSize} bytes received.`, {
      error_subcode: 1363040,
    });
  const bytes = readFileSync(partFile(state, session.id));
  state.sessions.delete(session.id);
  const title = typeof call.params.title === 'string' ? call.params.title : undefined;
  state.uploaded.set(session.videoId, {
    account,
    videoId: session.videoId,
    bytes: session.fileSize,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(title ? { title } : {}),
    finishedAt: clock.now(),
    processing: state.processing.get(account) ?? { seconds: DEFAULT_PROCESSING_SECONDS },
  });
  saveVideoState(state);
  rmSync(partFile(state, session.id), { force: true });
  listVideo(account, { id: session.videoId, ...(title ? { title } : {}), format: [] });
  return answer({ success: true });
}

/** `GET /{video_id}?fields=status` for a video uploaded here; undefined for any other node. */
export function uploadedVideoStatus(state: VideoState, id: string): SandboxResponse | undefined {
  expireSessions(state);
  if (state.expired.has(id)) {
    const status = {
      video_status: 'expired',
      uploading_phase: { status: 'error' },
      processing_phase: { status: 'not_started' },
      publishing_phase: { status: 'not_started' },
    };
    return { status: 200, body: { status, id } };
  }
  const open = [...state.sessions.entries()].find(([, session]) => session.videoId === id);
  if (open) {
    const status = {
      video_status: 'processing',
      uploading_phase: { status: 'in_progress', bytes_transferred: receivedOf(state, open[0]) },
      processing_phase: { status: 'not_started' },
      publishing_phase: { status: 'not_started' },
    };
    return { status: 200, body: { status, id } };
  }
  const video = state.uploaded.get(id);
  if (!video) return undefined;
  const elapsed = (clock.now() - video.finishedAt) / 1000;
  const uploading = { status: 'complete', bytes_transferred: video.bytes };
  const status = video.processing.error
    ? {
        video_status: 'error',
        processing_progress: 0,
        uploading_phase: uploading,
        processing_phase: { status: 'error', errors: [{ code: 1363011, message: video.processing.error }] },
        publishing_phase: { status: 'not_started' },
      }
    : elapsed >= video.processing.seconds
      ? {
          video_status: 'ready',
          processing_progress: 100,
          uploading_phase: uploading,
          processing_phase: { status: 'complete' },
          publishing_phase: { status: 'complete' },
        }
      : {
          video_status: 'processing',
          processing_progress: Math.min(99, Math.floor((elapsed / video.processing.seconds) * 100)),
          uploading_phase: uploading,
          processing_phase: { status: 'in_progress' },
          publishing_phase: { status: 'not_started' },
        };
  return { status: 200, body: { status, id } };
}

/** The bytes the sandbox holds of an uploaded video: size and digest, for the tests. */
export function uploadedVideo(state: VideoState, id: string): Pick<UploadedVideo, 'bytes' | 'sha256' | 'title'> | undefined {
  const video = state.uploaded.get(id);
  return video ? { bytes: video.bytes, sha256: video.sha256, ...(video.title ? { title: video.title } : {}) } : undefined;
}

/**
 * `POST /__sandbox/video-processing {account, seconds?, error?, sessionSeconds?}`: how the account's next
 * finished videos process, and how long its next upload session lives.
 */
export function setVideoProcessing(state: VideoState, fields: Record<string, unknown>): SandboxResponse {
  const account = String(fields.account ?? '');
  const processing = mediaProcessingOf(fields, DEFAULT_PROCESSING_SECONDS, 'sessionSeconds');
  if (!/^[0-9]+$/.test(account) || !processing) return { status: 400, body: { error: mediaProcessingUsage('account (digits)', 'sessionSeconds') } };
  state.processing.set(account, processing);
  saveVideoState(state);
  return { status: 200, body: processing };
}
