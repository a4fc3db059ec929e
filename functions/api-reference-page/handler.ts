import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { REFERENCE_PAGE_CSP, REFERENCE_PAGE_HTML } from '../../shared/docs/reference-page.ts';
import { requestIdOf } from '../../shared/http/middleware/tracing.ts';
import type { HttpResponse } from '../../shared/http/response.ts';

/** GET /docs: the interactive API reference (no API key needed to read it). */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': REFERENCE_PAGE_CSP,
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestIdOf(event, context),
    },
    body: REFERENCE_PAGE_HTML,
  };
}
