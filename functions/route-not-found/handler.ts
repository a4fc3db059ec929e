import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { config } from '../../shared/core/config.ts';
import { MethodNotAllowed, NotFound } from '../../shared/core/errors.ts';
import { requestIdOf } from '../../shared/http/middleware/tracing.ts';
import { errorResponse, type HttpResponse } from '../../shared/http/response.ts';
import { decodeRouteTable, matchRoute } from '../../shared/http/route-table.ts';

let table: ReturnType<typeof decodeRouteTable> | undefined;

/** The catch-all route: 404 for an unknown path (pointing to /docs), 405 for a known path with another method. */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> {
  const { method, path } = event.requestContext.http;
  table ??= decodeRouteTable(config().ROUTE_TABLE);
  const { allowed } = matchRoute(table, method, path);
  const error =
    allowed.length > 0
      ? new MethodNotAllowed(allowed)
      : new NotFound(`There is no operation at ${method} ${path}. Every operation is listed at GET /docs (the OpenAPI document: GET /openapi.json).`);
  const response = errorResponse(error);
  response.headers['x-request-id'] = requestIdOf(event, context);
  return response;
}
