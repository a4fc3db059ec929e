import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { postTo, sandboxOf, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * A report export killed with SIGKILL while it reads its run's rows (docs/reports.md, "Exports"): the
 * restarted job follows the same run (none started again), writes the whole file again under its one
 * key, and ends with one file holding every row.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-export-crash-'));
const apiKey = 'report-export-crash-key-0123456789';
const env = { JOB_LEASE_MS: '4000', REPORT_RUN_FIRST_WAIT_SECONDS: '1', LOG_LEVEL: 'SILENT' };
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => postTo(stack as ChildStack, apiKey, path, body);
const requests = async () => (await (await fetch(`${sandboxOf(stack as ChildStack, 'social')}/__sandbox/requests`)).json()) as RecordedRequest[];
/** the files under exports/ in the local bucket's folder */
function exportFiles(directory = join(dataDir, 's3')): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return exportFiles(path);
    return path.includes(`${join('exports', '')}`) && entry.name.endsWith('._S3rver_object') ? [path] : [];
  });
}

describe('a report export survives a kill -9 while it reads the run’s rows', () => {
  it('follows the same run after the restart and ends with one file of every row', async () => {
    stack = await startChildStack(dataDir, apiKey, env);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const body = { userId: 'demo-user', platform: 'social', level: 'ad', breakdown: 'age', startDate: day(-20), endDate: day(-1) };
    // the run's rows are held back: the kill lands while the file is being written
    await fetch(`${sandboxOf(stack, 'social')}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathIncludes: '60219876', method: 'GET', requestIncludes: 'after', answerDelayMs: 60_000, times: 5 }),
    });
    const started = await post('/reports/export_report', { ...body, format: 'jsonl' });
    const { jobId } = started.results;
    expect(jobId, JSON.stringify(started)).toBeTruthy();
    await eventually(
      async () => ((await requests()).some((request) => /\/60219876\d+\/insights$/.test(request.path) && request.query.after) ? true : undefined),
      30_000,
      'the second page of the run to be asked for',
    );
    const before = (await requests()).filter((request) => request.method === 'POST' && request.path.endsWith('/insights'));
    expect(before).toHaveLength(1);
    await (stack as ChildStack).kill();

    // restarted later than the lease of the run that died (on the stack's clock): the job is taken up at once
    stack = await startChildStack(dataDir, apiKey, { ...env, LOCAL_CLOCK_OFFSET_DAYS: String(10 / (24 * 60)) });
    const job = await eventually(
      async () => {
        const view = (await post('/jobs/get_job', { jobId })).results.job;
        return view.status === 'succeeded' || view.status === 'failed' ? view : undefined;
      },
      60_000,
      'the export to end after the restart',
    );
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    // no second run: the restart followed the one it had started
    expect((await requests()).filter((request) => request.method === 'POST' && request.path.endsWith('/insights'))).toEqual([]);
    const rows = gunzipSync(Buffer.from(await (await fetch(job.result.url)).arrayBuffer()))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(rows).toHaveLength(job.result.rows);
    let inline = 0;
    let pagination = '';
    do {
      const page = (await post('/reports/get_report', { ...body, pagination })).results;
      inline += page.rows.length;
      pagination = page.paging?.next ?? '';
    } while (pagination);
    expect(rows).toHaveLength(inline);
    expect(exportFiles()).toHaveLength(1);
  }, 180_000);
});
