import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { routes } from '../shared/routes.ts';

/**
 * `npm run bench`: every benchmark, each measurement in a fresh Node process running esbuild
 * bundles (as Lambda runs them). Figures are medians of a few runs and ratios within one run:
 * the machine is shared, so absolute numbers move between runs.
 */
const workDir = join(process.cwd(), '.bench');
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

function node(script: string, args: string[], nodeOptions = ''): Record<string, number | string> {
  const output = execFileSync(process.execPath, [...nodeOptions.split(' ').filter(Boolean), script, ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, number | string>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rows: Array<[string, string, string]> = [];

async function audiencePipeline(): Promise<void> {
  const script = join(workDir, 'audience-pipeline.mjs');
  await build({ entryPoints: ['bench/audience-pipeline.ts'], bundle: true, platform: 'node', format: 'esm', target: 'node24', minify: true, outfile: script, logLevel: 'error' });
  const ROWS = 1_000_000;
  const small = join(workDir, 'contacts-250k.csv');
  const large = join(workDir, 'contacts-1m.csv');
  node(script, ['write', small, String(ROWS / 4)]);
  node(script, ['write', large, String(ROWS)]);
  // measured with the NODE_OPTIONS the CSV functions are deployed with
  const csvRoute = routes.find((route) => route.operation === 'create_social_csv_audience');
  const options = csvRoute?.nodeOptions ?? '';
  const pipeline: number[] = [];
  const raw: number[] = [];
  const rss: number[] = [];
  for (let run = 0; run < 3; run++) {
    const measured = node(script, ['pipeline', large], options);
    pipeline.push(Number(measured.rowsPerSecond));
    rss.push(Number(measured.peakRssMb));
    raw.push(Number(node(script, ['raw', String(ROWS)], options).rowsPerSecond));
  }
  const smallRss = Number(node(script, ['pipeline', small], options).peakRssMb);
  const defaultRss = Number(node(script, ['pipeline', large]).peakRssMb);
  const ratio = median(pipeline) / median(raw);
  rows.push(
    ['audience: parse + normalise + hash (1,000,000 rows)', `${Math.round(median(pipeline)).toLocaleString('en-US')} rows/s`, ''],
    ['audience: raw SHA-256 of the same values', `${Math.round(median(raw)).toLocaleString('en-US')} rows/s`, ''],
    ['audience: pipeline / raw hashing', ratio.toFixed(2), ratio >= 0.5 ? 'goal ≥ 0.50 met' : 'goal ≥ 0.50 MISSED'],
    ['audience: peak RSS, 1,000,000 rows', `${median(rss)} MB`, median(rss) < 150 ? 'goal < 150 MB met' : 'goal < 150 MB MISSED'],
    ['audience: peak RSS, 250,000 rows', `${smallRss} MB`, 'flat with file size'],
    ['audience: peak RSS, 1,000,000 rows, Node defaults', `${defaultRss} MB`, `without ${options}`],
  );
}

await audiencePipeline();

const width = Math.max(...rows.map(([name]) => name.length));
console.log(`\n${'benchmark'.padEnd(width)}  ${'figure'.padEnd(22)}  note`);
console.log(`${'-'.repeat(width)}  ${'-'.repeat(22)}  ${'-'.repeat(24)}`);
for (const [name, figure, note] of rows) console.log(`${name.padEnd(width)}  ${figure.padEnd(22)}  ${note}`);
rmSync(workDir, { recursive: true, force: true });
