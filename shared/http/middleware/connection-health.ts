import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { User } from '../../store/users.ts';
import { notePlatformRefusal } from '../../webhooks/reconnect-required.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * A platform operation whose platform refused the user's grant marks the connection (see
 * notePlatformRefusal: a refused grant, a search-ads account blocked by undeclared campaigns; a fake in
 * the unit tests); the answer itself is unchanged (PLATFORM_AUTH_EXPIRED, EU_POLITICAL_DECLARATION_REQUIRED).
 * Passed by the platform handlers only, so that only their bundles hold the webhook code.
 */
export function connectionHealth(
  note: (user: User, error: unknown) => Promise<void> = notePlatformRefusal,
): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    onError: async (request) => {
      const user = request.context.user;
      if (user) await note(user, request.error);
    },
  };
}
