import * as z from 'zod';
import { getProfileRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { connectionsView } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Read a user',
  description: 'The user and its connections, without any token.',
  tag: 'Users',
  request: getProfileRequest,
  result: z.object({ user: z.object({ userId: z.string(), createdAt: z.string(), connections: connectionsView }) }),
  requestExample: { userId: 'demo-user' },
  resultExample: {
    user: {
      userId: 'demo-user',
      createdAt: `${day(-1)}T11:10:12.655Z`,
      connections: { searchads: { customerId: '1234567890', status: 'active', connectedAt: `${day(-1)}T11:10:12.655Z`, connectedVia: 'token' } },
    },
  },
};
