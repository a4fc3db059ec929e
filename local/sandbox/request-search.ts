/** What the search reads of a recorded request (local/sandbox/server.ts's RecordedRequest) */
interface RecordedRequest {
  query: Record<string, string>;
  body: string;
  headers: Record<string, string>;
}

/** Each recorded request's query string, made once: a test's poll for its requests reads thousands of them. */
const queryTexts = new WeakMap<RecordedRequest, string>();

/** What a fault's `requestIncludes` and the requests' `includes` look in: query, body and authorization header. */
export function carries(request: RecordedRequest, part: string): boolean {
  let query = queryTexts.get(request);
  if (query === undefined) {
    query = new URLSearchParams(request.query).toString();
    queryTexts.set(request, query);
  }
  return query.includes(part) || request.body.includes(part) || (request.headers.authorization ?? '').includes(part);
}

/**
 * The answers to `?includes=marker`, kept per marker and brought up to date with the requests recorded
 * since the last ask: a test polls for its own requests many times, and the sandbox (in the shared test
 * stack's process) would otherwise search every recorded request, megabytes of audience batches among
 * them, on every poll.
 */
const KEPT_MARKERS = 200;

export class RequestSearch {
  private readonly found = new Map<string, { nextSeq: number; matches: RecordedRequest[] }>();
  private readonly seqs = new WeakMap<RecordedRequest, number>();
  private nextSeq = 0;

  recorded(request: RecordedRequest): void {
    this.seqs.set(request, this.nextSeq++);
  }

  forgetAll(): void {
    this.found.clear();
  }

  /** the recorded requests carrying `marker`, oldest first (of those still kept) */
  carrying<T extends RecordedRequest>(requests: T[], marker: string): T[] {
    const entry = this.found.get(marker) ?? { nextSeq: 0, matches: [] };
    const seqOf = (request: RecordedRequest) => this.seqs.get(request) as number;
    // the kept requests are in order: the new ones are at the end
    let start = requests.length;
    while (start > 0 && seqOf(requests[start - 1] as RecordedRequest) >= entry.nextSeq) start--;
    for (const request of requests.slice(start)) if (carries(request, marker)) entry.matches.push(request);
    const oldestKept = requests[0] === undefined ? this.nextSeq : seqOf(requests[0]);
    entry.matches = entry.matches.filter((request) => seqOf(request) >= oldestKept);
    entry.nextSeq = this.nextSeq;
    // the markers asked for last are kept (a marker's answers hold its requests, even ones no longer recorded)
    this.found.delete(marker);
    this.found.set(marker, entry);
    if (this.found.size > KEPT_MARKERS) this.found.delete(this.found.keys().next().value as string);
    return entry.matches as T[];
  }
}
