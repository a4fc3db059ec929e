import type { BrowserRouteDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: BrowserRouteDoc = {
  summary: 'Open a connect link',
  description:
    'Sets the browser’s binding cookie (HttpOnly, SameSite=Lax) and redirects to the platform’s consent screen with a fresh one-time state (10 minutes).',
  responses: {
    '302':
      'To the platform’s consent screen; or, for a link already completed or past its 24 hours, back to the redirect URI with `status=error&error=expired`.',
    '400': 'An HTML page: the link is not known.',
  },
};
