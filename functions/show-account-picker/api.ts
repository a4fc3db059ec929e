import type { BrowserRouteDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: BrowserRouteDoc = {
  summary: 'Account picker',
  description: "A small self-contained page (no outside assets; CSP `default-src 'self'`) listing the ad accounts (and, for social, the Pages) to choose from.",
  responses: {
    '200': 'The picker.',
    '302': 'Back to the redirect URI with `error=expired` once the choice was made or its 15 minutes passed.',
    '400': 'An HTML page: not this browser’s choice.',
  },
};
