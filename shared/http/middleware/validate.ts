import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import { safeParse } from 'zod/mini';
import { InvalidRequest, type ProblemDetail } from '../../core/errors.ts';
import type { OperationContext } from '../operation-context.ts';
import { problemsOf } from '../validation-issues.ts';

/**
 * Validates `context.input` against the operation's schema (an upload operation's `jsonSchema` when
 * its body came as JSON) and hands on the parsed value (defaults applied).
 */
export function validate(schema: z.core.$ZodType, jsonSchema?: z.core.$ZodType): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    before: (request) => {
      const parsed = safeParse(request.context.jsonBody && jsonSchema ? jsonSchema : schema, request.context.input);
      if (!parsed.success) {
        const details: ProblemDetail[] = problemsOf(parsed.error.issues, request.context.input);
        const first = details[0];
        const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''}; see details)` : '';
        throw new InvalidRequest(`Invalid request: ${first?.path ? `${first.path}: ` : ''}${first?.message ?? 'invalid body'}${more}.`, details);
      }
      request.context.input = parsed.data;
    },
  };
}
