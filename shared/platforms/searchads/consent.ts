import { config } from '../../core/config.ts';
import { consentQuery, type ConsentSide } from '../connect-flow.ts';

/**
 * Where a connect link sends the person (docs/platforms.md): Google's consent screen with PKCE, offline access and the Ads and Data Manager scopes. Apart from the exchange
 * (connect.ts), so starting a link bundles none of the platform's client.
 */
/** Google's Data Manager API (Customer Match lists): asked with the Ads scope; a grant without it still connects search ads */
export const DATA_MANAGER_SCOPE = 'https://www.googleapis.com/auth/datamanager';
export const SEARCHADS_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/adwords', DATA_MANAGER_SCOPE];

export const searchadsConsent: ConsentSide = {
  platform: 'searchads',
  usesPkce: true,
  denials: ['access_denied'],
  consentUrl({ redirectUri, state, codeChallenge }) {
    const { SEARCHADS_AUTHORIZE_URL, SEARCHADS_CLIENT_ID } = config();
    const query = consentQuery({
      client_id: SEARCHADS_CLIENT_ID ?? '',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: SEARCHADS_SCOPES.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state,
      code_challenge: codeChallenge ?? '',
      code_challenge_method: 'S256',
    });
    return `${SEARCHADS_AUTHORIZE_URL}?${query}`;
  },
};
