import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleFunction } from '../infra/bundling.ts';
import { declaration as worker } from '../functions/workers/run-jobs/declaration.ts';
import { peakRssSource } from './peak-rss.ts';

/**
 * Videos of any size (issue "Images and videos into a user's ad account"): the job worker's bundle run
 * alone on a stored social video job, in a fresh process with its deployed NODE_OPTIONS, against a
 * platform stand-in in a process of its own that only acknowledges (names the next 4 MiB range, says
 * ready at once), for a 100 MiB and a 1 GiB file: peak RSS and throughput, against a plain streamed
 * copy of the same bytes from storage to a server that only acknowledges, run the same way (a fresh
 * process, the same NODE_OPTIONS).
 */
type Row = [string, string, string];
const API_KEY = 'bench-media-api-key-00000000000';
const MiB = 1024 * 1024;
/** Copy-then-job pairs per size; the figure is the median pair's. */
const PAIRS = 3;

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

/** The platform stand-in (acknowledging-platform.ts) in a process of its own, as a platform is. */
async function acknowledgingPlatform(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'acknowledging-platform.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error('the platform stand-in did not start');
  const closed = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = () => {
    child.kill();
    return closed;
  };
  return { url: (JSON.parse(first.value as string) as { url: string }).url, close };
}

const DRIVER = `const [bundle, tenantId, jobId] = process.argv.slice(2);
const { handler } = await import(bundle);
const deadline = Date.now() + ${worker.timeoutSeconds} * 1000;
const started = process.hrtime.bigint();
const record = { messageId: 'bench', receiptHandle: 'bench', body: JSON.stringify({ tenantId, jobId }), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, eventSource: 'aws:sqs' };
const result = await handler({ Records: [record] }, { awsRequestId: 'bench', functionName: 'run_jobs', getRemainingTimeInMillis: () => deadline - Date.now() });
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - started) / 1e9, failures: result.batchItemFailures.length, peakRssMb: ${peakRssSource} }));
`;

/**
 * The plain copy, in a fresh process with the worker's NODE_OPTIONS as the job runs: the object read
 * from storage with the same SDK client settings and streamed in one request to the sink.
 */
const COPY_DRIVER = `import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
const [key, sink] = process.argv.slice(2);
const s3 = new S3Client({ forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
const started = process.hrtime.bigint();
const { Body } = await s3.send(new GetObjectCommand({ Bucket: process.env.UPLOAD_BUCKET, Key: key }));
const answer = await fetch(sink, { method: 'POST', body: Readable.toWeb(Body), duplex: 'half' });
await answer.text();
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - started) / 1e9, peakRssMb: ${peakRssSource} }));
`;

export async function mediaJobFigures(workDir: string): Promise<Row[]> {
  const bundle = join(workDir, 'functions', worker.operation, 'index.mjs');
  await bundleFunction(worker.entry, bundle);
  const driver = join(workDir, 'media-driver.mjs');
  writeFileSync(driver, DRIVER);
  const copyDriver = join(workDir, 'copy-driver.mjs');
  writeFileSync(copyDriver, COPY_DRIVER);
  const platform = await acknowledgingPlatform();
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-media-'));
  // the stack then starts no social sandbox: every social call goes to the stand-in
  process.env.SOCIAL_API_URL = `${platform.url}/v26.0`;
  process.env.SOCIAL_VIDEO_API_URL = `${platform.url}/v26.0`;
  process.env.LOG_LEVEL = 'SILENT';
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, apiKey: API_KEY });
  /** A driver script run in a fresh process with the worker's NODE_OPTIONS and environment: its last line, parsed. */
  const inFreshProcess = async (script: string, args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [...(worker.nodeOptions ?? '').split(' ').filter(Boolean), script, ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...stack.env, ...(worker.processEnvironment ?? {}), LOG_LEVEL: 'WARN' },
      maxBuffer: 16 * MiB,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { seconds: number; peakRssMb: number };
  };
  /** A stored social video job (as upload_ad_media stores it, not queued: the stack's own consumer must not run it), run invocation after invocation until it ends. */
  const runVideoJob = async (tenantId: string, adAccountId: string, objectKey: string, size: number) => {
    const { createJob } = await import('../shared/store/job-writes.ts');
    const { findJob } = await import('../shared/store/jobs.ts');
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
        request: { objectKey, platform: 'social', adAccountId, name: 'Bench' },
        checkpoint: { polls: 0 },
      },
      undefined,
    );
    const measured = { job: 0, peakRssMb: 0, invocations: 0, chunks: 0 };
    let job = await findJob(tenantId, jobId);
    while (job?.status === 'queued' || job?.status === 'running') {
      if (measured.invocations++ > 20) throw new Error('the video job did not end in 20 invocations');
      const run = await inFreshProcess(driver, [bundle, tenantId, jobId]);
      measured.job += run.seconds;
      measured.peakRssMb = Math.max(measured.peakRssMb, run.peakRssMb);
      job = await findJob(tenantId, jobId);
    }
    if (job?.status !== 'succeeded') throw new Error(`the video job ended ${job?.status}: ${JSON.stringify(job?.error)}`);
    measured.chunks = job.progress.batchesSent;
    return measured;
  };
  const rows: Row[] = [];
  try {
    const { findTenantIdByKeyHash, hashApiKey } = await import('../shared/store/api-key-lookup.ts');
    const { findCompletedUpload } = await import('../shared/uploads/direct-uploads.ts');
    const { findUser } = await import('../shared/store/users.ts');
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(API_KEY))) as string;
    const adAccountId = (await findUser(tenantId, 'demo-user'))?.connections.social?.adAccountId as string;
    for (const size of [100 * MiB, 1024 * MiB]) {
      const file = videoFile(workDir, size);
      // pairs back to back (the copy, then the job), so a machine that slows down slows both sides of a pair
      const pairs: Array<{ copy: number; job: number; peakRssMb: number; chunks: number; invocations: number }> = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        // uploaded anew for each pair: the job deletes the staged file when it ends
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
        const copy = await inFreshProcess(copyDriver, [upload.objectKey, `${platform.url}/sink`]);
        const job = await runVideoJob(tenantId, adAccountId, upload.objectKey, size);
        pairs.push({ copy: copy.seconds, ...job });
      }
      const middle = [...pairs].sort((a, b) => a.copy / a.job - b.copy / b.job);
      const median = middle[Math.floor(PAIRS / 2)] as (typeof pairs)[number];
      const peakRssMb = Math.max(...pairs.map((pair) => pair.peakRssMb));
      const mbps = (seconds: number) => (size / MiB / seconds).toFixed(0);
      const ratio = (pair: (typeof pairs)[number]) => (pair.copy / pair.job).toFixed(2);
      rows.push([
        `media: video job, worker alone, ${size / MiB} MiB`,
        `peak RSS ${peakRssMb} MB, ${median.job.toFixed(1)} s (${mbps(median.job)} MiB/s), ${median.invocations} invocation(s)`,
        `${median.chunks} chunks of 4 MiB, each a checkpoint; plain streamed copy ${median.copy.toFixed(1)} s (${mbps(median.copy)} MiB/s): job/copy throughput ${ratio(median)} (median of ${PAIRS} pairs, ${ratio(middle[0] as (typeof pairs)[number])}–${ratio(middle.at(-1) as (typeof pairs)[number])}; goal ≥ 0.8); ${peakRssMb < 150 ? 'goal < 150 MB met' : 'goal < 150 MB MISSED'}`,
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
