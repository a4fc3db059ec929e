import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { StackProcess } from './stack-process.ts';

/**
 * Reports (docs/reports.md). Two figures:
 *
 * - platform calls per page, against `npm start`'s stack in its own process: for each platform, level
 *   and breakdown below, one page read after a warm-up (the account's currency and the names of values
 *   are kept, so the warm-up takes what is read once), the calls counted from the sandboxes' records.
 * - an export's rows per second and peak RSS, in processes of their own (bench/report-export-child.ts):
 *   report rows through the export's path (metrics, csv, gzip) against a plain gzip of the same rows
 *   as JSON lines, 100,000 then 1,000,000 rows, median of three runs each. The upload is not in it: the
 *   gzipped bytes go to the bucket through the SDK's multipart upload, 8 MiB a part, one at a time.
 */
type Row = [string, string, string];

const CASES: Array<{ platform: string; level: string; breakdown?: string }> = [
  { platform: 'social', level: 'campaign' },
  { platform: 'social', level: 'ad', breakdown: 'placement' },
  { platform: 'searchads', level: 'campaign' },
  { platform: 'searchads', level: 'campaign', breakdown: 'age' },
  { platform: 'searchads', level: 'ad_set', breakdown: 'region' },
  { platform: 'professional', level: 'ad' },
  { platform: 'professional', level: 'campaign', breakdown: 'job_function' },
];

async function post(url: string, apiKey: string, body: unknown) {
  const response = await fetch(`${url}/reports/get_report`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}
const count = async (sandbox: string) => ((await (await fetch(`${sandbox}/__sandbox/requests?count=1`)).json()) as { count: number }).count;

export async function reportCallFigures(stack: StackProcess, apiKey: string): Promise<Row[]> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const rows: Row[] = [];
  for (const entry of CASES) {
    const body = { userId: 'demo-user', ...entry, startDate: day(-30), endDate: day(-1) };
    await post(stack.url, apiKey, body); // warm-up: what is read once and kept
    const sandbox = stack.sandboxes[entry.platform] as string;
    const before = await count(sandbox);
    const page = await post(stack.url, apiKey, body);
    const calls = (await count(sandbox)) - before;
    const campaigns = new Set((page.results?.rows ?? []).map((row: { campaignId: string }) => row.campaignId)).size;
    rows.push([
      `reports: calls a page, ${entry.platform} ${entry.level}${entry.breakdown ? ` by ${entry.breakdown}` : ''}`,
      String(calls),
      `${page.results?.rows?.length ?? 0} rows of ${campaigns} campaigns, 30 days${entry.platform === 'professional' && entry.breakdown ? '; the one case DESIGN allows: 1 + one per campaign' : ''}`,
    ]);
  }
  return rows;
}

function child(rows: number, mode: string): { ms: number; peakRssMb: number } {
  const output = execFileSync(process.execPath, [join('bench', 'report-export-child.ts'), String(rows), mode], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as { ms: number; peakRssMb: number };
}

export function exportFigures(): Row[] {
  const rows: Row[] = [];
  for (const size of [100_000, 1_000_000]) {
    const runs = { plain: [] as Array<{ ms: number; peakRssMb: number }>, export: [] as Array<{ ms: number; peakRssMb: number }> };
    for (let round = 0; round < 3; round++) for (const mode of ['plain', 'export'] as const) runs[mode].push(child(size, mode));
    const median = (list: Array<{ ms: number }>) => [...list].sort((a, b) => a.ms - b.ms)[1] as { ms: number; peakRssMb: number };
    const [plain, exported] = [median(runs.plain), median(runs.export)];
    const rate = (ms: number) => Math.round(size / (ms / 1000));
    rows.push(
      [
        `reports: export ${size.toLocaleString('en')} rows`,
        `${rate(exported.ms).toLocaleString('en')} rows/s`,
        `metrics, csv and gzip; peak RSS ${Math.max(...runs.export.map((run) => run.peakRssMb))} MB`,
      ],
      [
        `reports: plain gzip ${size.toLocaleString('en')} rows`,
        `${rate(plain.ms).toLocaleString('en')} rows/s`,
        `the same rows as JSON lines; peak RSS ${Math.max(...runs.plain.map((run) => run.peakRssMb))} MB`,
      ],
      [`reports: export / plain gzip, ${size.toLocaleString('en')} rows`, `${(plain.ms / exported.ms).toFixed(2)}×`, 'goal ≥ 0.5; medians of 3 runs each'],
    );
  }
  return rows;
}
