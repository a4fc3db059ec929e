import { PlatformUnavailable } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { restliRequest, type ProfessionalSession, type StreamedBody } from './client.ts';
import type { ListType } from '../../schemas/audiences.ts';
import { accountUrn } from './urns.ts';

/**
 * docs/platforms.md, "Professional": a CSV list becomes an audience in four calls: an upload URL, the file, the DMP
 * segment, the attachment of the file to the segment. The answer comes once the list is attached
 * (the segment is BUILDING); the platform processes it for up to 48 hours after that.
 */
export type { ListType };

export interface ListUploadResult {
  /** the uploaded file's media URN (`urn:li:media:/….csv`) */
  inputFile: string;
  segmentId: string;
}

export async function generateUploadUrl(session: ProfessionalSession, adAccountId: string): Promise<string> {
  const { body } = await restliRequest(session, 'POST', '/dmpSegments?action=generateUploadUrl', {
    json: { owner: accountUrn(adAccountId) },
    retrySafe: true, // a URL nobody uses is harmless
  });
  const value = (body as { value?: unknown } | null)?.value;
  const url = typeof value === 'string' ? value : (value as { uploadUrl?: string } | undefined)?.uploadUrl;
  if (!url || !/^https?:\/\//.test(url)) throw new PlatformUnavailable('professional');
  return url;
}

/** a list of 300,000 rows is tens of megabytes: its upload gets minutes, not the seconds of an API call */
const FILE_UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** The file, whole or streamed (made anew for the one attempt: the URL is single-use). */
export async function uploadFile(session: ProfessionalSession, uploadUrl: string, csv: string | StreamedBody): Promise<string> {
  const { headers } = await restliRequest(session, 'POST', uploadUrl, {
    rawBody: { contentType: 'text/csv', data: csv },
    restli: false,
    retrySafe: false, // the URL is single-use
    attemptTimeoutMs: FILE_UPLOAD_TIMEOUT_MS,
  });
  const location = headers.get('location');
  if (!location) throw new PlatformUnavailable('professional');
  return location.startsWith('urn:') ? location : `urn:li:media:${location}`;
}

export async function createSegment(session: ProfessionalSession, adAccountId: string, type: ListType, name: string): Promise<string> {
  const { headers } = await restliRequest(session, 'POST', '/dmpSegments', {
    json: { name, account: accountUrn(adAccountId), type, sourcePlatform: 'LIST_UPLOAD', destinations: [{ destination: 'LINKEDIN' }] },
    retrySafe: false, // no idempotency upstream: a blind retry could make a second segment
  });
  const id = headers.get('x-restli-id') ?? headers.get('x-linkedin-id') ?? headers.get('location')?.split('/').pop();
  if (!id) throw new PlatformUnavailable('professional');
  return id;
}

/** Pages of the account's list segments read back at most (the platform holds 1,000 a account). */
const SEGMENT_PAGES = 10;
const SEGMENT_PAGE_SIZE = 100;
/** Our clock and the platform's may differ: a segment made up to this long before our mark is still ours to find. */
const CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * After a create whose answer was lost: the list segment of this name and type the account got at or
 * after `since` (the earliest, the one that create made), or undefined when there is none.
 */
export async function findListSegment(
  session: ProfessionalSession,
  adAccountId: string,
  type: ListType,
  name: string,
  since: number,
): Promise<string | undefined> {
  const found: Array<{ id: string; created: number }> = [];
  for (let page = 0; page < SEGMENT_PAGES; page++) {
    const query = new URLSearchParams({
      q: 'account',
      account: accountUrn(adAccountId),
      sourcePlatform: 'LIST_UPLOAD',
      start: String(page * SEGMENT_PAGE_SIZE),
      count: String(SEGMENT_PAGE_SIZE),
    });
    const { body } = await restliRequest(session, 'GET', `/dmpSegments?${query}`);
    const answer = (body ?? {}) as { elements?: Array<{ id?: number | string; name?: string; type?: string; created?: number }>; paging?: { total?: number } };
    for (const segment of answer.elements ?? []) {
      if (segment.name === name && segment.type === type && Number(segment.created) >= since - CLOCK_MARGIN_MS)
        found.push({ id: String(segment.id), created: Number(segment.created) });
    }
    if ((page + 1) * SEGMENT_PAGE_SIZE >= (answer.paging?.total ?? 0)) break;
  }
  return found.sort((a, b) => a.created - b.created)[0]?.id;
}

export async function uploadContactList(
  session: ProfessionalSession,
  adAccountId: string,
  type: ListType,
  name: string,
  csv: string,
): Promise<ListUploadResult> {
  const uploadUrl = await generateUploadUrl(session, adAccountId);
  const inputFile = await uploadFile(session, uploadUrl, csv);
  const segmentId = await createSegment(session, adAccountId, type, name);
  await attachListUpload(session, segmentId, inputFile);
  return { inputFile, segmentId };
}

/** The file attached to its segment; a segment left empty by a failure is deleted. */
export async function attachListUpload(session: ProfessionalSession, segmentId: string, inputFile: string): Promise<void> {
  try {
    await attachWhenVisible(session, segmentId, inputFile);
  } catch (error) {
    // an empty segment counts against the account's cap of 1,000: remove it, best effort
    await restliRequest(session, 'DELETE', `/dmpSegments/${segmentId}`, { retrySafe: true }).catch((cleanup: unknown) =>
      log().warn('could not delete the empty segment', { segmentId, reason: (cleanup as Error).name }),
    );
    throw error;
  }
}

/** A segment created seconds ago may answer 404 at first: asked again about 2, 4, 8 s later, within the deadline. */
const ATTACH_POLICY = { maxAttempts: 4, baseDelayMs: 2_000, maxDelayMs: 8_000 };

async function attachWhenVisible(session: ProfessionalSession, segmentId: string, inputFile: string): Promise<void> {
  await restliRequest(session, 'POST', `/dmpSegments/${segmentId}/listUploads`, {
    json: { inputFile },
    retrySafe: true,
    notFoundIsTransient: true,
    policy: ATTACH_POLICY,
  });
}
