import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { InvalidRequest, PayloadTooLarge, UnsupportedMediaType } from '../core/errors.ts';

/**
 * Reads a whole `multipart/form-data` body with @fastify/busboy and settles exactly once, promptly,
 * whatever the body: every stream's error is handled, every limit rejects instead of stalling the
 * parser. Written over busboy itself rather than @middy/http-multipart-body-parser, which leaves a
 * file stream's 'error' unhandled (a truncated body killed the process), calls `.push` on a string
 * for a field named `x[]` after `x`, and never settles once a limit stops busboy.
 *
 * What it returns is only what the form's spec names: the expected text fields, each at most once,
 * and exactly the one file; other text fields are ignored, array-style names are refused by name.
 */
export interface FormSpec {
  fileField: string;
  fields: readonly string[];
  maxFileBytes: number;
}

import type { UploadedFile } from '../schemas/uploaded-file.ts';
export type { UploadedFile };

export interface MultipartForm {
  /** the expected text fields that were sent (an object without a prototype) */
  fields: Record<string, string>;
  file: UploadedFile | undefined;
}

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 30;
const LIST_SUFFIX = /\[.*\]$/;

/** the `boundary` parameter of a content type, quoted or not; undefined when there is none */
const boundaryOf = (contentType: string) => {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? '') : undefined;
};

export function readMultipartForm(body: Buffer, contentType: string, spec: FormSpec): Promise<MultipartForm> {
  // RFC 2046 (5.1.1): a boundary is 1 to 70 characters. busboy takes an empty one and can then stall on a
  // body, settling never (a property test found one: docs/csv.md)
  const boundary = boundaryOf(contentType);
  if (boundary !== undefined && (boundary.length === 0 || boundary.length > 70))
    return Promise.reject(new UnsupportedMediaType('multipart/form-data with a boundary of 1 to 70 characters'));
  let parser: InstanceType<typeof Busboy>;
  try {
    parser = new Busboy({
      headers: { 'content-type': contentType },
      limits: { parts: MAX_PARTS, fields: MAX_PARTS, files: 1, fieldSize: MAX_FIELD_BYTES, fieldNameSize: 200, fileSize: spec.maxFileBytes, headerPairs: 20 },
    });
  } catch {
    return Promise.reject(new UnsupportedMediaType('multipart/form-data with a boundary'));
  }

  return new Promise<MultipartForm>((resolve, reject) => {
    const fields: Record<string, string> = Object.create(null);
    const chunks: Buffer[] = [];
    let file: UploadedFile | undefined;
    let fileSize = 0;
    let fileOpen = false;
    let parserDone = false;
    let settled = false;

    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const finishIfDone = () => {
      if (settled || !parserDone || fileOpen) return;
      settled = true;
      if (file) file.content = Buffer.concat(chunks, fileSize);
      resolve({ fields, file });
    };
    /** `userId[]` and the like: one of our fields sent as a list is refused by its name */
    const refuseName = (name: string) => {
      const base = name.replace(LIST_SUFFIX, '');
      if (base === name || !spec.fields.concat(spec.fileField).includes(base)) return false;
      fail(new InvalidRequest(`The form field "${base}" must be sent once, not as a list.`, [{ path: base, message: 'must be a single value' }]));
      return true;
    };

    parser.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      if (settled || refuseName(name)) return;
      if (nameTruncated) return fail(new InvalidRequest('A form field name is longer than 200 bytes.'));
      if (name === spec.fileField) {
        return fail(
          new InvalidRequest(`${spec.fileField} must be a file part (with a filename), not a text field.`, [
            { path: spec.fileField, message: 'must be a file' },
          ]),
        );
      }
      if (!spec.fields.includes(name)) return; // a field the operation does not take
      if (valueTruncated)
        return fail(
          new InvalidRequest(`The form field "${name}" is longer than ${MAX_FIELD_BYTES / 1024} KB.`, [
            { path: name, message: `must be at most ${MAX_FIELD_BYTES / 1024} KB` },
          ]),
        );
      if (Object.hasOwn(fields, name))
        return fail(new InvalidRequest(`The form field "${name}" is sent more than once.`, [{ path: name, message: 'must be sent once' }]));
      fields[name] = value;
    });

    parser.on('file', (name: string, stream: BusboyFileStream, filename: string | undefined) => {
      stream.on('error', (error: Error) => fail(new InvalidRequest(`The file part is malformed and cannot be read (${error.message}).`)));
      if (settled || refuseName(name) || name !== spec.fileField || file) {
        stream.resume();
        if (!settled && name !== spec.fileField && !LIST_SUFFIX.test(name)) {
          fail(
            new InvalidRequest(`The form carries a file in "${name}"; send exactly one file, in the ${spec.fileField} field.`, [
              { path: name, message: `only ${spec.fileField} takes a file` },
            ]),
          );
        }
        return;
      }
      file = { filename: filename ?? '', content: Buffer.alloc(0) };
      fileOpen = true;
      stream.on('data', (chunk: Buffer) => {
        fileSize += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () =>
        fail(
          new PayloadTooLarge(
            `The ${spec.fileField} file is larger than ${(spec.maxFileBytes / 1024 / 1024).toFixed(1)} MB, the most a multipart form may carry. Send it with /uploads/create_upload (a URL to PUT it to, up to 1 GiB), then this operation with its uploadId as JSON.`,
          ),
        ),
      );
      stream.on('end', () => {
        fileOpen = false;
        finishIfDone();
      });
    });

    parser.on('filesLimit', () =>
      fail(
        new InvalidRequest(`The form carries more than one file; send exactly one, in the ${spec.fileField} field.`, [
          { path: spec.fileField, message: 'must be exactly one file' },
        ]),
      ),
    );
    parser.on('partsLimit', () => fail(new InvalidRequest(`The form has more than ${MAX_PARTS} parts.`)));
    parser.on('fieldsLimit', () => fail(new InvalidRequest(`The form has more than ${MAX_PARTS} fields.`)));
    parser.on('error', (error: Error) => fail(new InvalidRequest(`The multipart/form-data body is malformed and cannot be read (${error.message}).`)));
    parser.on('finish', () => {
      parserDone = true;
      finishIfDone();
    });

    parser.end(body);
  });
}
