import { createLinkRequest, createLinkResult } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Create a connect link',
  description:
    'A hosted link that connects one user’s account on a platform: send the person to `link` (valid 24 hours, completes once). They consent on the platform, pick an ad account when they can reach several, and come back to `redirectUri` (exactly one of your tenant’s `redirectUris`) with `status=connected&platform=…&userId=…&state=…`, or `status=error&error=access_denied|no_ad_account|expired|platform_error&…`. No token, code or platform message is ever in that URL. A connection made again replaces the one the user had; `connection.connected` is sent to your webhook.',
  tag: 'Connect',
  request: createLinkRequest,
  result: createLinkResult,
  requestExample: { userId: 'demo-user', platform: 'searchads', redirectUri: 'https://app.example.com/connected', state: 'your-own-value' },
  resultExample: { link: 'https://api.example.com/auth/connect/7rb7ajMlcboL8YamyIFgEhoU', expiresAt: 1795585587273 },
};
