import type { BrowserRouteDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: BrowserRouteDoc = {
  summary: 'Platform callback',
  description:
    'Where each platform sends the person back; register `{PUBLIC_BASE_URL}/auth/callback/{platform}` in the platform’s app. Spends the state, exchanges the code once, and finds the ad accounts the person can reach.',
  query: { code: 'The authorization code (on consent).', state: 'The one-time state of the consent URL.', error: 'The platform’s refusal (on denial).' },
  responses: {
    '302': 'Back to the redirect URI with the outcome, or to the account picker when there are several accounts.',
    '400': 'An HTML page: the state cannot be tied to a link started in this browser.',
  },
};
