import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { UserNotFound } from '../../core/errors.ts';
import type { OperationContext } from '../operation-context.ts';
import type { RequestPorts } from '../request-ports.ts';

/** Loads `userId` within the key's tenant; unknown and other-tenant users get the same 404. */
export function resolveUser(ports: Pick<RequestPorts, 'findUser'>): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    before: async (request) => {
      const { userId } = request.context.input as { userId: string };
      const user = await ports.findUser(request.context.tenantId, userId);
      if (!user) throw new UserNotFound();
      request.context.user = user;
    },
  };
}
