import { createHash } from 'node:crypto';
import type middy from '@middy/core';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../../errors.ts';
import { header } from '../headers.ts';
import type { OperationContext } from '../operation-context.ts';

/**
 * Parses a `multipart/form-data` upload (@middy/http-multipart-body-parser) into `context.input`:
 * the named text fields, and the one file as `{filename, content}`. Only the expected names are
 * copied, onto an object without a prototype, so hostile part names change nothing.
 */
export const MAX_UPLOAD_BYTES = 6 * 1024 * 1024;

export interface UploadedFile {
  filename: string;
  content: Buffer;
}

interface Attachment {
  filename?: string;
  content?: Buffer;
  truncated?: boolean;
}

export function multipartBody(options: { fileField: string; fields: readonly string[] }) {
  return (): middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext> => {
    const parser = httpMultipartBodyParser({
      busboy: { limits: { files: 1, fileSize: MAX_UPLOAD_BYTES, fields: options.fields.length + 5, fieldSize: 64 * 1024, parts: options.fields.length + 6 } },
    });
    return {
      before: async (request) => {
        const contentType = header(request.event, 'content-type') ?? '';
        if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new UnsupportedMediaType('multipart/form-data');
        if (request.event.body === undefined) throw new InvalidRequest(`The form is empty; send the fields and the ${options.fileField} file.`);
        // the parser reads the header in its lowercase form only
        request.event.headers = { ...request.event.headers, 'content-type': contentType };
        try {
          await parser.before?.(request as never);
        } catch (error) {
          const status = (error as { statusCode?: number }).statusCode;
          if (status === 415 && /Unsupported Media Type/.test((error as Error).message)) throw new UnsupportedMediaType('multipart/form-data with a boundary');
          throw new InvalidRequest('The multipart/form-data body is malformed and cannot be read.');
        }
        const parts = request.event.body as unknown as Record<string, unknown>;
        const input: Record<string, unknown> = Object.create(null);
        for (const name of options.fields) if (Object.hasOwn(parts, name)) input[name] = parts[name];
        const file = Object.hasOwn(parts, options.fileField) ? (parts[options.fileField] as Attachment | Attachment[] | string) : undefined;
        if (file && !Array.isArray(file) && typeof file === 'object') {
          if (file.truncated) throw new PayloadTooLarge(`The ${options.fileField} file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`);
          input[options.fileField] = { filename: file.filename ?? '', content: file.content ?? Buffer.alloc(0) } satisfies UploadedFile;
        } else if (file !== undefined) {
          input[options.fileField] = file; // a text field or several files: validation names the problem
        }
        request.context.input = input;
        const content = (input[options.fileField] as UploadedFile | undefined)?.content;
        request.context.payloadFingerprint = {
          fields: Object.fromEntries(options.fields.map((name) => [name, input[name] ?? null])),
          file: Buffer.isBuffer(content) ? createHash('sha256').update(content).digest('hex') : null,
        };
      },
    };
  };
}
