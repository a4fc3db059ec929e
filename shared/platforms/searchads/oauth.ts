import { config } from '../../config.ts';
import type { TokenEndpoint } from '../oauth-token-client.ts';

/** The search-ads token endpoint (contract §1.1) with our app's credentials. */
export function searchadsTokenEndpoint(): TokenEndpoint {
  const { SEARCHADS_OAUTH_URL, SEARCHADS_CLIENT_ID, SEARCHADS_CLIENT_SECRET } = config();
  return {
    platform: 'searchads',
    url: SEARCHADS_OAUTH_URL,
    clientId: SEARCHADS_CLIENT_ID,
    clientSecret: SEARCHADS_CLIENT_SECRET,
    reconnectHint: 'reconnect the account with create_user.',
  };
}
