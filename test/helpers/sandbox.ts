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
