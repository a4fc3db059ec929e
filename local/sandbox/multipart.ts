import { Busboy } from '@fastify/busboy';

/** A multipart/form-data body as a platform reads it: its text fields and its files' bytes, by name. */
export interface FormBody {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

export function isMultipart(headers: Record<string, string>): boolean {
  return /^multipart\/form-data/i.test(headers['content-type'] ?? '');
}

export function readFormBody(headers: Record<string, string>, body: Buffer): Promise<FormBody | undefined> {
  return new Promise((resolve) => {
    const form: FormBody = { fields: {}, files: {} };
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({ headers: { 'content-type': headers['content-type'] ?? '' } });
    } catch {
      return resolve(undefined);
    }
    parser.on('field', (name: string, value: string) => {
      form.fields[name] = value;
    });
    parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        form.files[name] = Buffer.concat(chunks);
      });
    });
    parser.on('finish', () => resolve(form));
    parser.on('error', () => resolve(undefined));
    parser.end(body);
  });
}
