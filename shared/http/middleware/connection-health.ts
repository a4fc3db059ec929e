import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { noteRefusedGrant } from '../../webhooks/reconnect-required.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * A platform operation whose platform refused the user's grant marks the connection (see
 * noteRefusedGrant); the answer itself is unchanged (PLATFORM_AUTH_EXPIRED).
 */
export function connectionHealth(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    onError: async (request) => {
      const user = request.context.user;
      if (user) await noteRefusedGrant(user, request.error);
    },
  };
}
