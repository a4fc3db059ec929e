import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { log } from '../../core/logger.ts';
import type { HttpResponse } from '../response.ts';

/**
 * Outermost: puts the request id in the `x-request-id` response header and writes one access line
 * per request (status, result code, duration; never the body).
 */
export function tracing(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, Context> {
  const started = new WeakMap<object, number>();
  const finish = (request: middy.Request<APIGatewayProxyEventV2, unknown, Error, Context>) => {
    const response = request.response as HttpResponse | undefined;
    if (!response) return;
    response.headers = { ...response.headers, 'x-request-id': requestIdOf(request.event, request.context) };
    const code = response.body?.match(/"code":"([A-Z_]+)"/)?.[1];
    log().info('request completed', {
      status: response.statusCode,
      ...(code ? { code } : {}),
      durationMs: Math.round(performance.now() - (started.get(request) ?? performance.now())),
    });
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
    },
    after: finish,
    onError: finish,
  };
}

export function requestIdOf(event: APIGatewayProxyEventV2, context: Context): string {
  return event.requestContext?.requestId ?? context.awsRequestId;
}
