import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequest, UnsupportedMediaType } from '../../core/errors.ts';
import { header } from '../headers.ts';
import type { OperationContext } from '../operation-context.ts';

/** Far deeper than any operation's body (4 levels at most), far shallower than a stack overflow. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether the JSON text nests objects and arrays deeper than `max`, found by one scan of the text
 * (no recursion, nothing parsed), so that nothing later walks a hostile tree.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

export const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Parses an `application/json` body into `context.input`; 415 for another type, 400 for bad JSON. */
export function jsonBody(): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> {
  return {
    before: (request) => {
      const contentType = header(request.event, 'content-type') ?? '';
      if (!JSON_CONTENT_TYPE.test(contentType)) throw new UnsupportedMediaType('application/json');
      const { body, isBase64Encoded } = request.event;
      const raw = body === undefined ? '' : isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // a UTF-8 byte order mark, as some clients write: not part of the JSON
      if (text.trim() === '') throw new InvalidRequest('The request body is empty; send a JSON object.');
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new InvalidRequest(`The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`, [
          { path: '', message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
        ]);
      }
      try {
        request.context.input = JSON.parse(text);
      } catch {
        throw new InvalidRequest('The request body is not valid JSON.');
      }
      request.context.payloadFingerprint = request.context.input;
    },
  };
}
