import type { BrowserRouteDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: BrowserRouteDoc = {
  summary: 'Choose an account',
  description: 'Stores the connection for the chosen account and sends the person back.',
  form: { accountId: 'One of the offered, available accounts.', pageId: 'For social: one of the offered Pages.' },
  responses: { '302': 'Back to the redirect URI with `status=connected`.', '400': 'The picker again, saying what to choose.' },
};
