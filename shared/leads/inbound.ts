import { createHash } from 'node:crypto';
import { config } from '../core/config.ts';
import { log } from '../core/logger.ts';
import { sendMessage } from '../queue/send.ts';
import { type InboundPlatform, storeInbound } from '../store/platform-webhooks.ts';
import { professionalSignatureValid, socialSignatureValid } from './signatures.ts';

/**
 * A platform's webhook at our door (docs/leads.md, "Platform webhooks"): the size, then the signature
 * over the raw bytes, before anything is parsed or stored; a verified body is stored whole (with its
 * pending marker) and queued, and only then answered. A forged, unsigned or oversized body stores
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

const SIGNATURES: Record<InboundPlatform, { header: string; valid: (raw: Uint8Array, header: string | undefined) => boolean }> = {
  social: { header: 'x-hub-signature-256', valid: (raw, header) => socialSignatureValid(raw, header, config().SOCIAL_APP_SECRET ?? '') },
  professional: { header: 'x-li-signature', valid: (raw, header) => professionalSignatureValid(raw, header, config().PROFESSIONAL_CLIENT_SECRET ?? '') },
};

export async function receivePlatformWebhook(platform: InboundPlatform, raw: Uint8Array, headers: Record<string, string | undefined>): Promise<InboundAnswer> {
  if (raw.length > config().PLATFORM_WEBHOOK_MAX_BYTES) return answer(413, 'too large');
  const signature = SIGNATURES[platform];
  if (!signature.valid(raw, headers[signature.header])) {
    log().warn('platform webhook refused: its signature does not hold', { platform, bytes: raw.length });
    return answer(401, 'signature refused');
  }
  const bodyHash = createHash('sha256').update(raw).digest('hex');
  const stored = await storeInbound(platform, bodyHash, Buffer.from(raw).toString('utf8'));
  // a replay (or the platform's own retry) of a body stored already is answered as the first was
  if (stored)
    await sendMessage('PlatformEvents', { platform, bodyHash }).catch((error: unknown) =>
      log().warn('platform webhook stored but not queued; the leads sweep will process it', { platform, reason: (error as Error).name }),
    );
  log().info('platform webhook stored', { platform, bytes: raw.length, replay: !stored });
  return answer(200, 'EVENT_RECEIVED');
}
