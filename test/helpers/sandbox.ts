import type { Fault, RecordedRequest } from '../../infra/local/sandbox/server.ts';
import { stack } from './api.ts';

type PlatformName = 'social' | 'searchads' | 'professional';

/** The requests a sandbox received since the last `clearRequests`. */
export async function upstreamRequests(platform: PlatformName): Promise<RecordedRequest[]> {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/requests`);
  return (await response.json()) as RecordedRequest[];
}

export async function clearRequests(platform: PlatformName): Promise<void> {
  await fetch(`${stack().sandboxes[platform]}/__sandbox/requests`, { method: 'DELETE' });
  await fetch(`${stack().sandboxes[platform]}/__sandbox/faults`, { method: 'DELETE' });
}

export async function injectFault(platform: PlatformName, fault: Fault): Promise<void> {
  await fetch(`${stack().sandboxes[platform]}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
}

/** The requests that carried `marker` (a test user's token) in their query, body or authorization header. */
export async function upstreamRequestsWith(platform: PlatformName, marker: string): Promise<RecordedRequest[]> {
  return (await upstreamRequests(platform)).filter((request) =>
    `${new URLSearchParams(request.query)}\n${request.body}\n${request.headers.authorization ?? ''}`.includes(marker),
  );
}

/** The shared test stack's clock (epoch ms): it runs ahead of this process's by the waits it skipped. */
export async function stackNow(): Promise<number> {
  const response = await fetch(`${stack().sandboxes.social}/__sandbox/clock`);
  return ((await response.json()) as { now: number }).now;
}
