import * as z from 'zod';
import { platformSchema } from '../../shared/schemas/common.ts';
import { disconnectRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Disconnect a platform',
  description:
    'Removes the user’s connection to a platform and its tokens, and sends `connection.disconnected`. Operations on that platform then answer 409 PLATFORM_NOT_CONNECTED.',
  tag: 'Users',
  request: disconnectRequest,
  result: z.object({ userId: z.string(), platform: platformSchema, status: z.literal('disconnected') }),
  requestExample: { userId: 'demo-user', platform: 'social' },
  resultExample: { userId: 'demo-user', platform: 'social', status: 'disconnected' },
};
