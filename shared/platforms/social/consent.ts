import { config } from '../../core/config.ts';
import { consentQuery, type ConsentSide } from '../connect-flow.ts';

/**
 * Where a connect link sends the person (docs/platforms.md): the Facebook Login dialog (scopes, or a Login-for-Business `config_id`). Apart from the exchange
 * (connect.ts), so starting a link bundles none of the platform's client.
 */
export const SOCIAL_SCOPES = [
  'ads_management',
  'ads_read',
  'business_management',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_ads',
  'instagram_basic',
  // leads (docs/leads.md): read a lead's answers, install the app on a Page for lead webhooks
  'leads_retrieval',
  'pages_manage_metadata',
];

export const socialConsent: ConsentSide = {
  platform: 'social',
  usesPkce: false,
  denials: ['access_denied'],
  consentUrl({ redirectUri, state }) {
    const { SOCIAL_AUTHORIZE_URL, SOCIAL_APP_ID, SOCIAL_LOGIN_CONFIG_ID } = config();
    const permissions: Record<string, string> = SOCIAL_LOGIN_CONFIG_ID ? { config_id: SOCIAL_LOGIN_CONFIG_ID } : { scope: SOCIAL_SCOPES.join(',') };
    return `${SOCIAL_AUTHORIZE_URL}?${consentQuery({ client_id: SOCIAL_APP_ID ?? '', redirect_uri: redirectUri, state, response_type: 'code', ...permissions })}`;
  },
};
