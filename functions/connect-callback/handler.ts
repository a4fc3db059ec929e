import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineBrowserRoute } from '../../shared/http/browser-route.ts';
import { declaration } from './declaration.ts';
import { finishCallback } from '../use-cases/connect/connect-link.ts';

/** GET /auth/callback/{platform}: where each platform sends the person back with a code (or a refusal). */
export const handler = defineBrowserRoute({ declaration, credentials: loadAppCredentials, run: finishCallback });
