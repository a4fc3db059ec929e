import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { build } from 'esbuild';
import { bundleFunction } from '../infra/bundling.ts';
import { declaration as worker } from '../functions/workers/run-jobs/declaration.ts';
import { startStackProcess } from './stack-process.ts';
import { peakRssSource } from './peak-rss.ts';

/**
 * Lists of any size, measured (issue "Audience lists of any size"):
 * - a 1,000,000-row list through `npm start`'s local stack end to end (create_upload, the PUT, the
 *   start, the job done against the social sandbox): wall time, rows per second, upstream calls;
 * - the job worker's peak RSS at 1,000,000 and 10,000,000 rows: its bundle, run alone in a
 *   Node process with the options it is deployed with, on a job stored in a local stack, sending to a
 *   platform stand-in that only acknowledges (so the platform's memory is not counted as the worker's).
 */
type Row = [string, string, string];
const API_KEY = 'bench-jobs-api-key-000000000000';
const BATCH = 10_000;
const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

/** The generated contact file (written by the audience-pipeline script, one line per contact). */
async function contactFile(workDir: string, rows: number): Promise<string> {
  const script = join(workDir, 'audience-pipeline.mjs');
  if (!existsSync(script))
    await build({
      entryPoints: ['bench/audience-pipeline.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      minify: true,
      outfile: script,
      logLevel: 'error',
    });
  const file = join(workDir, `job-contacts-${rows}.csv`);
  if (!existsSync(file)) execFileSync(process.execPath, [script, 'write', file, String(rows)]);
  return file;
}

async function api(base: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as { results: any };
  if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(parsed)}`);
  return parsed.results;
}

/** create_upload and the PUT of the file, streamed from disk. */
async function uploadFile(base: string, file: string): Promise<string> {
  const size = statSync(file).size;
  const ticket = await api(base, '/uploads/create_upload', { userId: 'demo-user', fileName: 'contacts.csv', contentLength: size });
  const body = Readable.toWeb(createReadStream(file, { highWaterMark: 1024 * 1024 })) as ReadableStream;
  const put = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body, duplex: 'half' } as RequestInit);
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  return ticket.uploadId as string;
}

async function endToEnd(workDir: string, env: NodeJS.ProcessEnv, rows: number): Promise<Row[]> {
  const file = await contactFile(workDir, rows);
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-jobs-'));
  const stack = await startStackProcess({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: API_KEY });
  try {
    const started = performance.now();
    const uploadId = await uploadFile(stack.url, file);
    const uploadedAt = performance.now();
    const start = await api(stack.url, '/social/create_social_csv_audience', { userId: 'demo-user', audienceName: `Bench ${rows}`, uploadId });
    let job: any;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = (await api(stack.url, '/jobs/get_job', { jobId: start.jobId })).job;
    } while (job.status === 'queued' || job.status === 'running');
    const seconds = (performance.now() - started) / 1000;
    const jobSeconds = (performance.now() - uploadedAt) / 1000;
    if (job.status !== 'succeeded') throw new Error(`the job ${job.status}: ${JSON.stringify(job.error)}`);
    const { loadAudiences } = await import('../local/sandbox/social-audiences.ts');
    const audience = loadAudiences(join(dataDir, 'sandbox-social-audiences.json')).get(start.audienceId);
    const calls = audience?.batches.length ?? 0;
    const expected = Math.ceil(rows / BATCH);
    return [
      [
        `jobs: ${fmt(rows)}-row list end to end (npm start)`,
        `${seconds.toFixed(1)} s, ${fmt(rows / seconds)} rows/s`,
        `create_upload + PUT ${((uploadedAt - started) / 1000).toFixed(1)} s, job ${jobSeconds.toFixed(1)} s; num_received ${fmt(job.result.num_received)}`,
      ],
      [
        `jobs: upstream calls, ${fmt(rows)} rows`,
        `${calls} batches + 1 create`,
        calls === expected ? `= ceil(rows / 10,000), goal met` : `expected ${expected}, goal MISSED`,
      ],
    ];
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A platform stand-in that acknowledges each batch with the session's running count, and counts. */
async function acknowledgingPlatform(): Promise<{ url: string; calls: () => number; rows: () => number; close(): Promise<void> }> {
  let calls = 0;
  let rows = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { payload: { data: unknown[] } };
      calls++;
      rows += body.payload.data.length;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ num_received: rows, num_invalid_entries: 0, invalid_entry_samples: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v26.0`,
    calls: () => calls,
    rows: () => rows,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * `heap 45 + buffers 20 + rest 90 MB (50 of it mapped from files)`: a memoryUsage() sample in MB split
 * into parts that add up to its RSS, and how much of the rest is file pages rather than memory allocated.
 */
function describePeak(sample: Record<string, number>): string {
  const heap = sample.heapTotal ?? 0;
  const buffers = sample.external ?? 0;
  return `at the peak: heap ${heap} + buffers ${buffers} + rest ${(sample.rss ?? 0) - heap - buffers} MB (${sample.fileMapped ?? 0} of it mapped from files)`;
}

/** The worker's bundle run alone on one job, in a fresh process with the worker's NODE_OPTIONS. */
async function workerRun(workDir: string, rowCounts: number[]): Promise<Row[]> {
  const bundle = join(workDir, 'functions', worker.operation, 'index.mjs');
  await bundleFunction(worker.entry, bundle);
  const driver = join(workDir, 'worker-driver.mjs');
  writeFileSync(
    driver,
    `const [bundle, tenantId, jobId] = process.argv.slice(2);
const { handler } = await import(bundle);
const deadline = Date.now() + ${worker.timeoutSeconds} * 1000;
const started = process.hrtime.bigint();
// what the process held when its RSS was highest (sampled every 100 ms): the JS heap, buffers, the rest
let atPeak = { rss: 0 };
// and of the RSS, the pages mapped from files (the node binary's code and ICU data, read in as they are used)
const { readFileSync } = await import('node:fs');
const fileMapped = () => Number(/RssFile:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
setInterval(() => { const now = { ...process.memoryUsage(), fileMapped: fileMapped() }; if (now.rss > atPeak.rss) atPeak = now; }, 100).unref();
const record = { messageId: 'bench', receiptHandle: 'bench', body: JSON.stringify({ tenantId, jobId }), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {}, eventSource: 'aws:sqs' };
const result = await handler({ Records: [record] }, { awsRequestId: 'bench', functionName: 'run_jobs', getRemainingTimeInMillis: () => deadline - Date.now() });
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - started) / 1e9, failures: result.batchItemFailures.length, peakRssMb: ${peakRssSource}, atPeak: Object.fromEntries(Object.entries(atPeak).map(([name, bytes]) => [name, Math.round(bytes / 2 ** 20)])) }));
`,
  );
  const platform = await acknowledgingPlatform();
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-worker-'));
  process.env.SOCIAL_API_URL = platform.url; // the stack then starts no social sandbox
  process.env.LOG_LEVEL = 'SILENT';
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, apiKey: API_KEY });
  const out: Row[] = [];
  try {
    const { findTenantIdByKeyHash, hashApiKey } = await import('../shared/store/api-key-lookup.ts');
    const { createJob } = await import('../shared/store/job-writes.ts');
    const { findJob } = await import('../shared/store/jobs.ts');
    const { findCompletedUpload } = await import('../shared/uploads/direct-uploads.ts');
    const { newUploadProgress } = await import('../functions/use-cases/audiences/social-audience-batches.ts');
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(API_KEY))) as string;
    const runs = rowCounts.map((rows) => ({ rows, processEnvironment: worker.processEnvironment ?? {} }));
    // the first size once more with the C allocator's defaults: what the deployed settings change
    if (runs[0] && worker.processEnvironment) runs.push({ rows: runs[0].rows, processEnvironment: {} });
    for (const { rows, processEnvironment } of runs) {
      const file = await contactFile(workDir, rows);
      const upload = await findCompletedUpload(tenantId, 'demo-user', await uploadFile(stack.url, file));
      // the job operation 7 stores for mode append, not queued: the stack's own consumer must not run it
      const jobId = `job_${randomBytes(16).toString('hex')}`;
      const now = new Date().toISOString();
      await createJob(
        {
          jobId,
          tenantId,
          userId: 'demo-user',
          type: 'social_audience',
          status: 'running',
          progress: { bytesRead: 0, totalBytes: upload.contentLength, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
          createdAt: now,
          updatedAt: now,
          request: { objectKey: upload.objectKey, mode: 'append', audienceId: '23850000000000001', audienceName: 'Bench' },
          checkpoint: { ...newUploadProgress(Date.now() * 1000), localInvalid: 0, localSamples: {} },
        },
        undefined,
      );
      const callsBefore = platform.calls();
      // not execFileSync: the stores and the platform stand-in live in this process's event loop
      const { stdout: output } = await promisify(execFile)(
        process.execPath,
        [...(process.env.BENCH_WORKER_NODE_OPTIONS ?? worker.nodeOptions ?? '').split(' ').filter(Boolean), driver, bundle, tenantId, jobId],
        {
          encoding: 'utf8',
          env: { ...process.env, ...stack.env, ...processEnvironment, SOCIAL_API_URL: platform.url, LOG_LEVEL: 'WARN' },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const measured = JSON.parse(output.trim().split('\n').at(-1) as string) as {
        seconds: number;
        failures: number;
        peakRssMb: number;
        atPeak: Record<string, number>;
      };
      const job = await findJob(tenantId, jobId);
      if (job?.status !== 'succeeded' || measured.failures > 0) throw new Error(`the worker's job ended ${job?.status}: ${JSON.stringify(job?.error)}`);
      const calls = platform.calls() - callsBefore;
      out.push([
        `jobs: worker alone, ${fmt(rows)} rows (${(upload.contentLength / 1024 ** 2).toFixed(0)} MB)${Object.keys(processEnvironment).length ? '' : ', glibc malloc defaults'}`,
        `peak RSS ${measured.peakRssMb} MB, ${measured.seconds.toFixed(1)} s`,
        // at the highest sample: heap, buffers and what is neither (code, the allocator's arenas, V8's own tables)
        `${describePeak(measured.atPeak)}; ${fmt(rows / measured.seconds)} rows/s over both passes; ${calls} calls; ${measured.peakRssMb < 150 ? 'goal < 150 MB met' : 'goal < 150 MB MISSED'} (${[worker.nodeOptions, ...Object.entries(processEnvironment).map(([name, value]) => `${name}=${value}`)].join(' ')})`,
      ]);
    }
  } finally {
    await stack.stop();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

export async function audienceJobFigures(workDir: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
  const rows = process.env.BENCH_JOBS_WORKER_ONLY ? [] : await endToEnd(workDir, env, 1_000_000);
  rows.push(...(await workerRun(workDir, process.env.BENCH_JOBS_WORKER_ONLY ? [1_000_000] : [1_000_000, 10_000_000])));
  return rows;
}

// run as its own process by bench/run.ts: the in-process local stack here must not meet the clients
// another benchmark's stack left cached in the same process
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [workDir = join(process.cwd(), '.bench')] = process.argv.slice(2);
  const figures = await audienceJobFigures(workDir, { ...process.env });
  console.log(JSON.stringify(figures));
  process.exit(0);
}
