import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { readGeneratedDocument } from '../../shared/docs/reference-files.ts';
import { header } from '../../shared/http/headers.ts';
import { requestIdOf } from '../../shared/http/middleware/tracing.ts';
import type { HttpResponse } from '../../shared/http/response.ts';

let generated: Record<string, unknown> | undefined;
const documents = new Map<string, string>();

/** GET /openapi.json: the OpenAPI 3.1 document, its server being the host that was asked. */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> {
  const protocol = header(event, 'x-forwarded-proto') ?? 'http';
  const serverUrl = `${protocol}://${event.requestContext.domainName}`;
  let document = documents.get(serverUrl);
  if (!document) {
    generated ??= readGeneratedDocument(import.meta.url);
    document = JSON.stringify({ ...generated, servers: [{ url: serverUrl, description: 'This server' }] });
    if (documents.size < 8) documents.set(serverUrl, document);
  }
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
      'x-request-id': requestIdOf(event, context),
    },
    body: document,
  };
}
