import type { Fault, RecordedRequest } from '../../local/sandbox/server.ts';
import { stack } from './api.ts';

export type PlatformName = 'social' | 'searchads' | 'professional';

/**
 * Test files share one stack and run in parallel, so each test keeps to its own namespace in the
 * sandboxes: the marker of what it created (its user's token, its customer id, a unique name). It
 * reads the recordings that carry its marker, and a fault it injects must name that scope; nothing
 * clears a sandbox for everyone.
 */
export type ScopedFault = Fault & ({ requestIncludes: string | string[] } | { pathIncludes: string });

/**
 * How many requests each sandbox had received when this test file began (test/setup/stack-env.ts): the
 * ones before are other files', and late in a run they are thousands, some of megabytes, which a test
 * polling for its own request would have the shared stack serialize ten times a second.
 */
const beforeThisFile: Partial<Record<PlatformName, number>> = {};

export async function markRequestsBeforeThisFile(): Promise<void> {
  for (const platform of ['social', 'searchads', 'professional'] as const) beforeThisFile[platform] = await upstreamRequestCount(platform);
}

/** Every request a sandbox recorded since this test file began (or from the `from`-th on); filter it by the test's own marker. */
export async function upstreamRequests(platform: PlatformName, from = beforeThisFile[platform] ?? 0): Promise<RecordedRequest[]> {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/requests?from=${from}`);
  return (await response.json()) as RecordedRequest[];
}

/** How many requests a sandbox has recorded. */
export async function upstreamRequestCount(platform: PlatformName): Promise<number> {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/requests?count=1`);
  return ((await response.json()) as { count: number }).count;
}

/** The faults this test file queued and no request has taken yet, by sandbox URL. */
const queuedFaults: Array<{ sandbox: string; id: string }> = [];

export async function injectFault(platform: PlatformName, fault: ScopedFault): Promise<void> {
  if (!fault.requestIncludes && !fault.pathIncludes) throw new Error('a fault must be scoped to the test’s own requests');
  const sandbox = stack().sandboxes[platform] as string;
  const response = await fetch(`${sandbox}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  queuedFaults.push({ sandbox, id: ((await response.json()) as { id: string }).id });
}

/**
 * Withdraws what the test's faults left queued (a fault for more requests than were made, say), run
 * after each test: a leftover matched on a body fragment once refused another file's write.
 */
export async function withdrawLeftoverFaults(): Promise<void> {
  const leftovers = queuedFaults.splice(0);
  await Promise.all(leftovers.map(({ sandbox, id }) => fetch(`${sandbox}/__sandbox/faults/${id}`, { method: 'DELETE' })));
}

/** The requests that carried `marker` (a test user's token) in their query, body or authorization header; the sandbox filters them. */
export async function upstreamRequestsWith(platform: PlatformName, marker: string): Promise<RecordedRequest[]> {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/requests?includes=${encodeURIComponent(marker)}`);
  return (await response.json()) as RecordedRequest[];
}

/** The shared test stack's clock (epoch ms): it runs ahead of this process's by the waits it skipped. */
export async function stackNow(): Promise<number> {
  const response = await fetch(`${stack().sandboxes.social}/__sandbox/clock`);
  return ((await response.json()) as { now: number }).now;
}

/** Moves the shared test stack's clock forward (as its skipped waits do), for a test that needs time to have passed. */
export async function advanceStackClock(ms: number): Promise<void> {
  const response = await fetch(`${stack().sandboxes.social}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  if (response.status !== 200) throw new Error(`the stack's clock did not move: ${response.status}`);
}
