import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import { Unauthorized } from '../../core/errors.ts';
import { type ApiKeyOwner, hashApiKey } from '../../store/api-key-lookup.ts';
import { header } from '../headers.ts';
import type { OperationContext } from '../operation-context.ts';
import type { RequestPorts } from '../request-ports.ts';

const MAX_CACHED_KEYS = 1000;
/** An unknown key is remembered at most this long (docs/decisions.md, "The first seconds"): a key made a moment ago works within a second. */
export const UNKNOWN_KEY_CACHE_MS = 1_000;

/** An API key → its owner (null: unknown or revoked), looked up with the store and kept briefly, so warm calls skip the lookup. */
export function apiKeyOwners(ports: Pick<RequestPorts, 'findApiKey'>): (apiKey: string) => Promise<ApiKeyOwner | null> {
  /** key hash → its owner (or null for an unknown key) */
  const cache = new Map<string, { owner: ApiKeyOwner | null; expiresAt: number }>();
  return async function ownerOf(apiKey: string): Promise<ApiKeyOwner | null> {
    const keyHash = hashApiKey(apiKey);
    const now = clock.now();
    const cached = cache.get(keyHash);
    if (cached && cached.expiresAt > now) return cached.owner;
    const owner = (await ports.findApiKey(keyHash)) ?? null;
    if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
    const ttl = owner ? config().API_KEY_CACHE_TTL_MS : Math.min(UNKNOWN_KEY_CACHE_MS, config().API_KEY_CACHE_TTL_MS);
    cache.set(keyHash, { owner, expiresAt: now + ttl });
    return owner;
  };
}

/** `x-api-key` → the key's tenant and id; a missing, unknown or revoked key is 401. */
export function apiKeyAuth(ports: Pick<RequestPorts, 'findApiKey'>): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  const ownerOf = apiKeyOwners(ports);
  return {
    before: async (request) => {
      const apiKey = header(request.event, 'x-api-key');
      if (!apiKey || apiKey.length > 512) throw new Unauthorized();
      const owner = await ownerOf(apiKey);
      if (!owner) throw new Unauthorized();
      request.context.tenantId = owner.tenantId;
      request.context.apiKeyId = owner.keyId;
    },
  };
}
