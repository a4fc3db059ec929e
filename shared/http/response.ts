import { redactCredentials, redactDeep } from '../core/redaction.ts';
import { answeredErrorFields } from '../core/error-field-names.ts';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ServiceError } from '../core/errors.ts';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string>; body: string };

/** Every JSON answer: never sniffed as another type, never cached (it may hold a user's data). */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  };
}

/** `{success: true, results: {success: true, …result}}` */
export function successResponse(result: object, status: 200 | 202 = 200): HttpResponse {
  return jsonResponse(status, { success: true, results: { success: true, ...result } });
}

/**
 * The envelope of the error table (docs/errors.md). Platform refusals are a successful HTTP exchange
 * (200, success true) whose operation failed (results.success false).
 */
export function errorResponse(error: ServiceError): HttpResponse {
  const httpOk = error.status === 200;
  // a platform's words may quote a credential: none leaves in an answer, whatever path the error took
  const results = { success: false, error: redactCredentials(error.message), code: error.code, ...redactDeep(answeredErrorFields(error.extra)) };
  return jsonResponse(error.status, { success: httpOk, results }, error.headers);
}
