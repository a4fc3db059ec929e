import { config } from '../../core/config.ts';
import { consentQuery, type ConsentSide } from '../connect-flow.ts';

/**
 * Where a connect link sends the person (docs/platforms.md): the authorization dialog with the scopes our operations need. Apart from the exchange
 * (connect.ts), so starting a link bundles none of the platform's client.
 */
/** w_organization_social: the organization's images and videos for ads (upload_ad_media) and the posts its ads run as. */
export const PROFESSIONAL_SCOPES = [
  'r_ads',
  'rw_ads',
  'rw_dmp_segments',
  'r_ads_reporting',
  'w_organization_social',
  'r_marketing_leadgen_automation',
  'rw_conversions',
];

export const professionalConsent: ConsentSide = {
  platform: 'professional',
  usesPkce: false,
  denials: ['user_cancelled_authorize', 'user_cancelled_login'],
  consentUrl({ redirectUri, state }) {
    const { PROFESSIONAL_AUTHORIZE_URL, PROFESSIONAL_CLIENT_ID } = config();
    const query = consentQuery({
      response_type: 'code',
      client_id: PROFESSIONAL_CLIENT_ID ?? '',
      redirect_uri: redirectUri,
      state,
      scope: PROFESSIONAL_SCOPES.join(' '),
    });
    return `${PROFESSIONAL_AUTHORIZE_URL}?${query}`;
  },
};
