import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Busboy } from '@fastify/busboy';
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleFunction } from '../infra/bundling.ts';
import { declaration as worker } from '../functions/workers/run-audience-jobs/declaration.ts';
import { peakRssSource } from './peak-rss.ts';

/**
 * Videos of any size (issue "Images and videos into a user's ad account"): the job worker's bundle run
 * alone on a stored social video job, in a fresh process with its deployed NODE_OPTIONS, against a
 * platform stand-in that only acknowledges (names the next 4 MiB range, says ready at once), for a
 * 100 MiB and a 1 GiB file: peak RSS and throughput, against a plain streamed copy of the same bytes
 * from storage to a server that only acknowledges.
 */
type Row = [string, string, string];
const API_KEY = 'bench-media-api-key-00000000000';
const MiB = 1024 * 1024;
const CHUNK = 4 * MiB;

/** A file of `bytes` bytes that is an MP4 by its first bytes (random filler, written a MiB at a time). */
function videoFile(workDir: string, bytes: number): string {
  const file = join(workDir, `video-${bytes}.mp4`);
  if (existsSync(file)) return file;
  const fd = openSync(file, 'w');
  const filler = randomBytes(MiB);
  // an ftyp box first: the kind is read from the first bytes
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2', 'latin1')]).copy(filler);
  for (let written = 0; written < bytes; written += MiB) writeSync(fd, filler, 0, Math.min(MiB, bytes - written));
  closeSync(fd);
  return file;
}

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
async function acknowledgingPlatform(): Promise<{ url: string; close(): Promise<void> }> {
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

const DRIVER = `const [bundle, tenantId, jobId] = process.argv.slice(2);
const { handler } = await import(bundle);
const deadline = Date.now() + ${worker.timeoutSeconds} * 1000;
const started = process.hrtime.bigint();
const record = { messageId: 'bench', receiptHandle: 'bench', body: JSON.stringify({ tenantId, jobId }), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, eventSource: 'aws:sqs' };
const result = await handler({ Records: [record] }, { awsRequestId: 'bench', functionName: 'run_audience_jobs', getRemainingTimeInMillis: () => deadline - Date.now() });
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - started) / 1e9, failures: result.batchItemFailures.length, peakRssMb: ${peakRssSource} }));
`;

export async function mediaJobFigures(workDir: string): Promise<Row[]> {
  const bundle = join(workDir, 'functions', worker.operation, 'index.mjs');
  await bundleFunction(worker.entry, bundle);
  const driver = join(workDir, 'media-driver.mjs');
  writeFileSync(driver, DRIVER);
  const platform = await acknowledgingPlatform();
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-media-'));
  // the stack then starts no social sandbox: every social call goes to the stand-in
  process.env.SOCIAL_API_URL = `${platform.url}/v26.0`;
  process.env.SOCIAL_VIDEO_API_URL = `${platform.url}/v26.0`;
  process.env.LOG_LEVEL = 'SILENT';
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, apiKey: API_KEY });
  const rows: Row[] = [];
  try {
    const { findTenantIdByKeyHash, hashApiKey } = await import('../shared/store/api-key-lookup.ts');
    const { createJob } = await import('../shared/store/audience-job-writes.ts');
    const { findJob } = await import('../shared/store/audience-jobs.ts');
    const { findCompletedUpload } = await import('../shared/uploads/direct-uploads.ts');
    const { readStagedUpload } = await import('../shared/storage/staging.ts');
    const { findUser } = await import('../shared/store/users.ts');
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(API_KEY))) as string;
    const adAccountId = (await findUser(tenantId, 'demo-user'))?.connections.social?.adAccountId as string;
    for (const size of [100 * MiB, 1024 * MiB]) {
      const file = videoFile(workDir, size);
      const ticket = (await (
        await fetch(`${stack.url}/uploads/create_upload`, {
          method: 'POST',
          headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ userId: 'demo-user', fileName: 'video.mp4', contentLength: size, purpose: 'video', contentType: 'video/mp4' }),
        })
      ).json()) as { results: { url: string; headers: Record<string, string>; uploadId: string } };
      const body = Readable.toWeb(createReadStream(file, { highWaterMark: MiB })) as ReadableStream;
      const put = await fetch(ticket.results.url, { method: 'PUT', headers: ticket.results.headers, body, duplex: 'half' } as RequestInit);
      if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
      const upload = await findCompletedUpload(tenantId, 'demo-user', ticket.results.uploadId, ['video']);

      // the plain copy: the same bytes from storage, streamed in one request to a server that only acknowledges
      const copyStarted = performance.now();
      const stream = Readable.toWeb(Readable.from(await readStagedUpload(upload.objectKey))) as ReadableStream;
      await (await fetch(`${platform.url}/sink`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)).text();
      const copySeconds = (performance.now() - copyStarted) / 1000;

      // the job upload_ad_media stores, not queued: the stack's own consumer must not run it
      const jobId = `job_${randomBytes(16).toString('hex')}`;
      const now = new Date().toISOString();
      await createJob(
        {
          jobId,
          tenantId,
          userId: 'demo-user',
          type: 'ad_media',
          status: 'queued',
          progress: { bytesRead: 0, totalBytes: size, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
          createdAt: now,
          updatedAt: now,
          request: { objectKey: upload.objectKey, platform: 'social', adAccountId, name: 'Bench' },
          checkpoint: { polls: 0 },
        },
        undefined,
      );
      // one invocation after another (each a slice of the worker's time) until the job ends
      const measured = { seconds: 0, peakRssMb: 0, invocations: 0 };
      let job = await findJob(tenantId, jobId);
      while (job?.status === 'queued' || job?.status === 'running') {
        if (measured.invocations++ > 20) throw new Error('the video job did not end in 20 invocations');
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [...(worker.nodeOptions ?? '').split(' ').filter(Boolean), driver, bundle, tenantId, jobId],
          { encoding: 'utf8', env: { ...process.env, ...stack.env, ...(worker.processEnvironment ?? {}), LOG_LEVEL: 'WARN' }, maxBuffer: 16 * MiB },
        );
        const run = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { seconds: number; peakRssMb: number };
        measured.seconds += run.seconds;
        measured.peakRssMb = Math.max(measured.peakRssMb, run.peakRssMb);
        job = await findJob(tenantId, jobId);
      }
      if (job?.status !== 'succeeded') throw new Error(`the video job ended ${job?.status}: ${JSON.stringify(job?.error)}`);
      const mbps = (seconds: number) => (size / MiB / seconds).toFixed(0);
      rows.push([
        `media: video job, worker alone, ${size / MiB} MiB`,
        `peak RSS ${measured.peakRssMb} MB, ${measured.seconds.toFixed(1)} s (${mbps(measured.seconds)} MiB/s), ${measured.invocations} invocation(s)`,
        `${job.progress.batchesSent} chunks of 4 MiB, each a checkpoint; plain streamed copy ${copySeconds.toFixed(1)} s (${mbps(copySeconds)} MiB/s): job/copy throughput ${(copySeconds / measured.seconds).toFixed(2)} (goal ≥ 0.8); ${measured.peakRssMb < 150 ? 'goal < 150 MB met' : 'goal < 150 MB MISSED'}`,
      ]);
    }
  } finally {
    await stack.stop();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

// run as its own process by bench/run.ts, as the audience-job bench is
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await mediaJobFigures(process.argv[2] ?? join(process.cwd(), '.bench'))));
  process.exit(0);
}
