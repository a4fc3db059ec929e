import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { User } from '../../store/users.ts';
import { noteRefusedGrant } from '../../webhooks/reconnect-required.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * A platform operation whose platform refused the user's grant marks the connection (see
 * noteRefusedGrant; a fake in the unit tests); the answer itself is unchanged (PLATFORM_AUTH_EXPIRED).
 * Passed by the platform handlers only, so that only their bundles hold the webhook code.
 */
export function connectionHealth(
  note: (user: User, error: unknown) => Promise<void> = noteRefusedGrant,
): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    onError: async (request) => {
      const user = request.context.user;
      if (user) await note(user, request.error);
    },
  };
}
