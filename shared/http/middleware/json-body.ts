import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequest, UnsupportedMediaType } from '../../errors.ts';
import { header } from '../headers.ts';
import type { OperationContext } from '../operation-context.ts';

/** Parses an `application/json` body into `context.input`; 415 for another type, 400 for bad JSON. */
export function jsonBody(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    before: (request) => {
      const contentType = header(request.event, 'content-type') ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType)) throw new UnsupportedMediaType('application/json');
      const { body, isBase64Encoded } = request.event;
      const text = body === undefined ? '' : isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (text.trim() === '') throw new InvalidRequest('The request body is empty; send a JSON object.');
      try {
        request.context.input = JSON.parse(text);
      } catch {
        throw new InvalidRequest('The request body is not valid JSON.');
      }
      request.context.payloadFingerprint = request.context.input;
    },
  };
}
