import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineBrowserRoute } from '../../shared/http/browser-route.ts';
import { declaration } from './declaration.ts';
import { completePicker } from '../use-cases/connect/connect-link.ts';

/** POST /auth/select/{attemptId}: stores the connection for the account the person chose. */
export const handler = defineBrowserRoute({ declaration, credentials: loadAppCredentials, run: completePicker });
