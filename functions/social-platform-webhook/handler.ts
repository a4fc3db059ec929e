import { defineInboundRoute } from '../../shared/http/inbound-route.ts';
import { receivePlatformWebhook } from '../../shared/leads/inbound.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { declaration } from './declaration.ts';

/** POST /platform-webhooks/social (docs/leads.md, "Platform webhooks"). */
export const handler = defineInboundRoute({
  declaration,
  credentials: loadAppCredentials,
  run: ({ raw, headers }) => receivePlatformWebhook('social', raw, headers),
});
