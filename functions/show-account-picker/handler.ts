import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineBrowserRoute } from '../../shared/http/browser-route.ts';
import { declaration } from './declaration.ts';
import { showPicker } from '../use-cases/connect/connect-outcome.ts';

/** GET /auth/select/{attemptId}: the account picker, when the person can reach several accounts. */
export const handler = defineBrowserRoute({ declaration, credentials: loadAppCredentials, run: showPicker });
