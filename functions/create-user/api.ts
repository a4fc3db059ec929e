import * as z from 'zod';
import { createUserRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Register a user',
  description: 'Creates a user of your API key’s tenant with its platform connections. Tokens are stored encrypted and never returned.',
  tag: 'Users',
  request: createUserRequest,
  result: z.object({ userId: z.string() }),
  requestExample: { userId: 'alice', connections: { searchads: { refreshToken: '1//refresh-token', customerId: '123-456-7890' } } },
  resultExample: { userId: 'alice' },
};
