import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResponse } from './response.ts';

/**
 * API Gateway's event as a web-standard Request, and a Response back, for a library written to the
 * Fetch API (the MCP SDK's transport).
 */
export function webRequestOf(event: APIGatewayProxyEventV2): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const body = event.body === undefined ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  const method = event.requestContext.http.method;
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  return new Request(`https://${event.requestContext.domainName}${event.rawPath}${query}`, {
    method,
    headers,
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
}

export async function httpResponseOf(response: Response, extraHeaders: Record<string, string> = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers: { ...headers, ...extraHeaders }, body: await response.text() };
}
