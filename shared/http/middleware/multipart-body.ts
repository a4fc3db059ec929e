import { createHash } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequest, UnsupportedMediaType } from '../../core/errors.ts';
import { JSON_CONTENT_TYPE, jsonBody } from './json-body.ts';
import { header } from '../headers.ts';
import { readMultipartForm } from '../multipart-form.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * A function's synchronous payload is at most 6 MB, and API Gateway hands it a multipart body
 * base64-encoded (4/3 larger), so a form tops out near 4.5 MB: the file may have 4 MB.
 */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
const TOO_LARGE_FOR_A_FORM = `The request is larger than a function accepts: a multipart upload may carry a file of at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Send a larger file with /uploads/create_upload (a URL to PUT it to, up to 1 GiB), then this operation with its uploadId as JSON.`;
/** The 413 text for a request a function cannot take, true to what was sent (a form's file, or another body). */
export function tooLargeForARequest(contentType: string | undefined): string {
  if (MULTIPART_CONTENT_TYPE.test(contentType ?? '')) return TOO_LARGE_FOR_A_FORM;
  return 'The request body is larger than a function accepts (6 MB with its headers). No operation needs a body near that size; a contact list of any size goes through /uploads/create_upload and an uploadId.';
}

const MULTIPART_CONTENT_TYPE = /^multipart\/form-data\s*(;|$)/i;

/**
 * Parses a `multipart/form-data` upload into `context.input`: the named text fields, and the one
 * file as `{filename, content}`; every malformed form is a 400 (or 413), never a stall or a crash.
 */
export function multipartBody(options: { fileField: string; fields: readonly string[] }) {
  return (): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> => ({
    before: async (request) => {
      const contentType = header(request.event, 'content-type') ?? '';
      if (!MULTIPART_CONTENT_TYPE.test(contentType)) throw new UnsupportedMediaType('multipart/form-data');
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === '') throw new InvalidRequest(`The form is empty; send the fields and the ${options.fileField} file.`);
      const form = await readMultipartForm(Buffer.from(body, isBase64Encoded ? 'base64' : 'utf8'), contentType, {
        fileField: options.fileField,
        fields: options.fields,
        maxFileBytes: MAX_UPLOAD_BYTES,
      });
      const input: Record<string, unknown> = Object.assign(Object.create(null), form.fields);
      if (form.file) input[options.fileField] = form.file;
      request.context.input = input;
      request.context.payloadFingerprint = {
        fields: Object.fromEntries(options.fields.map((name) => [name, form.fields[name] ?? null])),
        file: form.file ? createHash('sha256').update(form.file.content).digest('hex') : null,
      };
    },
  });
}

/**
 * An upload operation's body: the multipart form, or JSON naming a file sent with create_upload
 * (docs/decisions.md "Uploads and audience jobs"); `context.jsonBody` says which came.
 */
export function multipartOrJsonBody(options: { fileField: string; fields: readonly string[] }) {
  return (): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> => {
    const multipart = multipartBody(options)();
    const json = jsonBody();
    return {
      before: async (request) => {
        const contentType = header(request.event, 'content-type') ?? '';
        if (JSON_CONTENT_TYPE.test(contentType)) {
          request.context.jsonBody = true;
          return json.before?.(request);
        }
        if (!MULTIPART_CONTENT_TYPE.test(contentType))
          throw new UnsupportedMediaType('multipart/form-data (the file) or application/json (an uploadId from /uploads/create_upload)');
        return multipart.before?.(request);
      },
    };
  };
}
