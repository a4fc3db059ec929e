import { createHash } from 'node:crypto';
import { config } from '../core/config.ts';
import { log } from '../core/logger.ts';
import { inboundBodies } from '../flows/flows.ts';
import { flowOn } from '../flows/on-table.ts';
import { type InboundPlatform, inboundAttributes, inboundKey } from '../store/platform-webhooks.ts';
import { LEAD_WEBHOOKS } from './lead-webhooks.ts';

/**
 * A platform's webhook at our door (docs/leads.md, "Platform webhooks"): the size, then the signature
 * over the raw bytes, before anything is parsed or stored; a verified body is stored whole (an item of
 * the `inbound` event flow) and queued, and only then answered. A forged, unsigned or oversized body stores
 * nothing. The answers are the platforms' (a status and a short body), never our envelope.
 */
export interface InboundAnswer {
  statusCode: number;
  contentType: 'text/plain' | 'application/json';
  body: string;
}

const answer = (statusCode: number, body: string, contentType: InboundAnswer['contentType'] = 'text/plain'): InboundAnswer => ({
  statusCode,
  contentType,
  body,
});

export async function receivePlatformWebhook(platform: InboundPlatform, raw: Uint8Array, headers: Record<string, string | undefined>): Promise<InboundAnswer> {
  if (raw.length > config().PLATFORM_WEBHOOK_MAX_BYTES) return answer(413, 'too large');
  const webhooks = LEAD_WEBHOOKS[platform];
  if (!webhooks.signatureValid(raw, headers[webhooks.signatureHeader])) {
    log().warn('platform webhook refused: its signature does not hold', { platform, bytes: raw.length });
    return answer(401, 'signature refused');
  }
  const bodyHash = createHash('sha256').update(raw).digest('hex');
  const body = Buffer.from(raw).toString('utf8');
  // stored once and queued (a failed send is the sweep's); a replay, or the platform's own retry, stores
  // nothing and is answered as the first was
  const stored = await flowOn(inboundBodies).admit(inboundKey(platform, bodyHash), await inboundAttributes(platform, bodyHash, body));
  log().info('platform webhook stored', { platform, bytes: raw.length, replay: !stored });
  return answer(200, 'EVENT_RECEIVED');
}
