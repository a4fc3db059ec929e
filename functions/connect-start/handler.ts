import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineBrowserRoute } from '../../shared/http/browser-route.ts';
import { declaration } from './declaration.ts';
import { startConsent } from '../use-cases/connect/start-consent.ts';

/** GET /auth/connect/{linkId}: sends the person to the platform's consent screen. */
export const handler = defineBrowserRoute({ declaration, credentials: loadAppCredentials, run: startConsent });
