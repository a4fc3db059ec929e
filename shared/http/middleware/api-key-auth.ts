import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import { Unauthorized } from '../../core/errors.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../store/api-key-lookup.ts';
import { header } from '../headers.ts';
import type { OperationContext } from '../operation-context.ts';

const MAX_CACHED_KEYS = 1000;
/** key hash → tenant id (or null for an unknown key), briefly, so warm calls skip the lookup */
const cache = new Map<string, { tenantId: string | null; expiresAt: number }>();

async function tenantOf(apiKey: string): Promise<string | null> {
  const keyHash = hashApiKey(apiKey);
  const now = clock.now();
  const cached = cache.get(keyHash);
  if (cached && cached.expiresAt > now) return cached.tenantId;
  const tenantId = (await findTenantIdByKeyHash(keyHash)) ?? null;
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(keyHash, { tenantId, expiresAt: now + config().API_KEY_CACHE_TTL_MS });
  return tenantId;
}

/** `x-api-key` → the key's tenant; a missing, unknown or revoked key is 401. */
export function apiKeyAuth(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    before: async (request) => {
      const apiKey = header(request.event, 'x-api-key');
      if (!apiKey || apiKey.length > 512) throw new Unauthorized();
      const tenantId = await tenantOf(apiKey);
      if (!tenantId) throw new Unauthorized();
      request.context.tenantId = tenantId;
    },
  };
}
