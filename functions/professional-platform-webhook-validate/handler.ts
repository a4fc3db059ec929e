import { defineInboundRoute } from '../../shared/http/inbound-route.ts';
import { answerProfessionalValidation } from '../../shared/leads/handshakes.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { declaration } from './declaration.ts';

/** GET /platform-webhooks/professional (docs/leads.md, "Platform webhooks"). */
export const handler = defineInboundRoute({ declaration, credentials: loadAppCredentials, run: ({ query }) => answerProfessionalValidation(query) });
