import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { referenceScript } from '../../shared/docs/reference-page.ts';
import { header } from '../../shared/http/headers.ts';
import { requestIdOf } from '../../shared/http/middleware/tracing.ts';
import type { HttpResponse } from '../../shared/http/response.ts';

/** GET /docs/scalar-api-reference.js: the reference page's renderer, gzip when the client takes it (3.5 MB plain). */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> {
  const script = referenceScript();
  const gzip = /\bgzip\b/.test(header(event, 'accept-encoding') ?? '');
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      'x-request-id': requestIdOf(event, context),
    },
    body: (gzip ? script.gzip : script.plain).toString('base64'),
    isBase64Encoded: true,
  };
}
