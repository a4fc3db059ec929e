import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PlatformAuthExpired } from '../../errors.ts';
import { markReconnectRequired } from '../../store/user-writes.ts';
import { recordWebhookEvent } from '../../webhooks/events.ts';
import { log } from '../logger.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * A platform that refused the user's grant (expired or revoked) marks the connection
 * `reconnect_required` and tells the tenant once with `connection.reconnect_required`; the answer
 * itself is unchanged (PLATFORM_AUTH_EXPIRED). Only platform operations use it. The event is stored
 * due at once and the sweep queues it (within 5 minutes): the queue's client stays out of every
 * platform function's bundle and the function needs no right to the queue.
 */
export function connectionHealth(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    onError: async (request) => {
      const { error } = request;
      const user = request.context.user;
      if (!(error instanceof PlatformAuthExpired) || !user || !(error.platform in user.connections)) return;
      try {
        if (!(await markReconnectRequired(user, error.platform))) return;
        await recordWebhookEvent(user.tenantId, 'connection.reconnect_required', { userId: user.userId, platform: error.platform, status: 'reconnect_required' });
      } catch (failure) {
        log().error('could not record the connection as reconnect_required', { platform: error.platform, error: (failure as Error).name });
      }
    },
  };
}
