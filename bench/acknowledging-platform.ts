import { randomBytes } from 'node:crypto';
import { Busboy } from '@fastify/busboy';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * The video bench's platform stand-in, in a process of its own as a platform is (its multipart parsing
 * must not take the local stack's time): the video host's three phases in 4 MiB ranges, a status read
 * that says ready, and a sink that only acknowledges for the plain copy. Run alone, it prints its URL.
 */
const CHUNK = 4 * 1024 * 1024;

const drain = (request: IncomingMessage) =>
  new Promise<number>((resolve) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => resolve(bytes));
  });

/** The form's text fields, and the bytes of its file, counted as they stream (never held). */
function readForm(request: IncomingMessage): Promise<{ fields: Record<string, string>; fileBytes: number }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let fileBytes = 0;
    const parser = new Busboy({ headers: { 'content-type': request.headers['content-type'] ?? '' } });
    parser.on('field', (name: string, value: string) => (fields[name] = value));
    parser.on('file', (_name: string, stream: NodeJS.ReadableStream) => stream.on('data', (chunk: Buffer) => (fileBytes += chunk.length)));
    parser.on('finish', () => resolve({ fields, fileBytes }));
    parser.on('error', reject);
    request.pipe(parser);
  });
}

/** The stand-in: the video host's three phases (4 MiB ranges), a status read that says ready, and a sink for the plain copy. */
export async function acknowledgingPlatform(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, number>();
  const server = createServer(async (request, response) => {
    const answer = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.method === 'GET') {
      request.resume();
      return answer({ id: '1', status: { video_status: 'ready', processing_progress: 100, uploading_phase: { status: 'complete' } } });
    }
    if (request.url?.startsWith('/sink')) return answer({ bytes: await drain(request) });
    const { fields, fileBytes } = await readForm(request);
    const range = (start: number, size: number) => ({ start_offset: String(start), end_offset: String(Math.min(size, start + CHUNK)) });
    if (fields.upload_phase === 'start') {
      const id = randomBytes(6).toString('hex');
      sessions.set(id, Number(fields.file_size));
      return answer({ upload_session_id: id, video_id: '1209876543210001', ...range(0, Number(fields.file_size)) });
    }
    if (fields.upload_phase === 'transfer') return answer(range(Number(fields.start_offset) + fileBytes, sessions.get(fields.upload_session_id ?? '') ?? 0));
    return answer({ success: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await acknowledgingPlatform();
  console.log(JSON.stringify({ url }));
}
