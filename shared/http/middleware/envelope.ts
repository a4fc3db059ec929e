import { isAnsweredNow } from '../answer-status.ts';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { IdempotencyConflict, InternalError, ServiceError } from '../../core/errors.ts';
import { EscapedError } from '../escape-guard.ts';
import { log } from '../../core/logger.ts';
import { errorResponse, successResponse, type HttpResponse } from '../response.ts';

/**
 * The response envelope, written once: a handler's result becomes `results` (202 for an operation that
 * only queues its work), and every thrown
 * error becomes its row of the error table (docs/errors.md). Errors below 500 show their message; anything
 * unexpected is logged (name and stack, never a request body) and answered with a fixed sentence.
 */
export function envelope(successStatus: 200 | 202 = 200): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, Context> {
  return {
    after: (request) => {
      request.response = successResponse((request.response ?? {}) as object, isAnsweredNow(request.response) ? 200 : successStatus);
    },
    onError: (request) => {
      request.response = errorEnvelope(request.error);
    },
  };
}

/** Any error as its row of the error table. */
export function errorEnvelope(error: unknown): HttpResponse {
  return errorResponse(toServiceError(error));
}

function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) {
    if (error.status >= 500) log().warn('upstream failure', { code: error.code, reason: describe(error.cause) });
    return error;
  }
  const name = (error as Error | undefined)?.name;
  if (name === 'IdempotencyValidationError') {
    return new IdempotencyConflict('This Idempotency-Key was already used with a different request body; use a new key.');
  }
  if (name === 'IdempotencyAlreadyInProgressError') {
    return new IdempotencyConflict('A request with this Idempotency-Key is still being processed; retry once it has finished.');
  }
  log().error(error instanceof EscapedError ? 'error escaped a handler' : 'unhandled error', {
    error: describe(error instanceof EscapedError ? error.escaped : error),
  });
  return new InternalError(error);
}

/** Error name and stack frames without the message text, which may quote input. */
function describe(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof Error)) return error === undefined ? undefined : { type: typeof error };
  return { name: error.name, stack: error.stack?.split('\n').slice(1, 8).join('\n') };
}
