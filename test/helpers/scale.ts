import type { Context } from 'aws-lambda';
import type { PlatformName } from './sandbox.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { findUser, type User } from '../../shared/store/users.ts';
import { stack } from './api.ts';

/** Adds `count` ACTIVE campaigns with daily budgets to an ad account of a sandbox; answers their ids. */
export async function seedCampaigns(platform: PlatformName, account: string, count: number): Promise<string[]> {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, count }),
  });
  if (response.status !== 201) throw new Error(`seeding failed: ${await response.text()}`);
  return ((await response.json()) as { ids: string[] }).ids;
}

/** The stored user behind an API key, as a function sees it. */
export async function storedUser(apiKey: string, userId: string): Promise<User> {
  const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  return (await findUser(tenantId, userId)) as User;
}

export const lambdaContext = { getRemainingTimeInMillis: () => 60_000, awsRequestId: 'test' } as unknown as Context;
