import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { routes } from '../functions/routes.ts';
import { declaration as worker } from '../functions/workers/run-jobs/declaration.ts';
import { coldStart } from './cold-start.ts';
import { launchCalls } from './launch-calls.ts';
import { loadTest, roundTrips } from './end-to-end.ts';
import { conversionFigures, hashingFigures } from './conversions.ts';
import { sendFigures } from './conversions-send.ts';
import { exportFigures, reportCallFigures } from './reports.ts';
import { leadFigures } from './leads.ts';
import { startStackProcess } from './stack-process.ts';

/**
 * `npm run bench`: every benchmark, each measurement in a fresh Node process running esbuild
 * bundles (as Lambda runs them). Figures are medians of a few runs and ratios within one run:
 * the machine is shared, so absolute numbers move between runs.
 */
const workDir = join(process.cwd(), '.bench');
/** the environment before any local stack of this run set its endpoints in it */
const initialEnv = { ...process.env };
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

function node(script: string, args: string[], nodeOptions = ''): Record<string, number | string> {
  const output = execFileSync(process.execPath, [...nodeOptions.split(' ').filter(Boolean), script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, number | string>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
/** Pipeline/raw pairs measured back to back: enough for a median that one noisy pair does not move. */
const PAIRS = 5;
/** The ratio of each pair (a[i] / b[i]), their median and their spread (lowest–highest). */
function pairRatios(a: number[], b: number[]): { median: number; spread: string } {
  const ratios = a.map((value, index) => value / (b[index] as number)).sort((x, y) => x - y);
  return { median: median(ratios), spread: `${(ratios[0] as number).toFixed(2)}–${(ratios.at(-1) as number).toFixed(2)}` };
}
const rows: Array<[string, string, string]> = [];

async function audiencePipeline(): Promise<void> {
  const script = join(workDir, 'audience-pipeline.mjs');
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
  const ROWS = 1_000_000;
  const small = join(workDir, 'contacts-250k.csv');
  const large = join(workDir, 'contacts-1m.csv');
  const distinct = join(workDir, 'contacts-1m-distinct.csv');
  node(script, ['write', small, String(ROWS / 4)]);
  node(script, ['write', large, String(ROWS)]);
  node(script, ['write', distinct, String(ROWS), 'distinct']);
  const quoted = join(workDir, 'contacts-1m-quoted.csv');
  node(script, ['write', quoted, String(ROWS), 'quoted']);
  // throughput with the NODE_OPTIONS the job worker is deployed with; memory with the CSV functions'
  const workerOptions = worker.nodeOptions ?? '';
  const csvOptions = routes.find((route) => route.operation === 'create_social_csv_audience')?.nodeOptions ?? '';
  const rowsPerSecond = (file: string, options: string) => Number(node(script, ['pipeline', file], options).rowsPerSecond);
  const rawRowsPerSecond = (...variant: string[]) => Number(node(script, ['raw', String(ROWS), ...variant], workerOptions).rowsPerSecond);
  const pipeline: number[] = [];
  const raw: number[] = [];
  const pipelineDistinct: number[] = [];
  const rawDistinct: number[] = [];
  const pipelineQuoted: number[] = [];
  const rss: number[] = [];
  // pair by pair (pipeline, then raw, each pair back to back), so a drift of the machine touches both sides of a ratio alike
  for (let run = 0; run < PAIRS; run++) {
    pipeline.push(rowsPerSecond(large, workerOptions));
    raw.push(rawRowsPerSecond());
    pipelineDistinct.push(rowsPerSecond(distinct, workerOptions));
    rawDistinct.push(rawRowsPerSecond('distinct'));
    pipelineQuoted.push(rowsPerSecond(quoted, workerOptions));
    rss.push(Number(node(script, ['pipeline', large], csvOptions).peakRssMb));
  }
  // the search-ads list: Google's rules, the same rows with a country column (the address needs it)
  const withCountry = join(workDir, 'contacts-1m-country.csv');
  node(script, ['write', withCountry, String(ROWS), 'country']);
  const google: number[] = [];
  const googleMembers: number[] = [];
  const googleRaw: number[] = [];
  for (let run = 0; run < PAIRS; run++) {
    googleMembers.push(Number(node(script, ['google-members', String(ROWS)], workerOptions).rowsPerSecond));
    googleRaw.push(Number(node(script, ['google-raw', String(ROWS)], workerOptions).rowsPerSecond));
    google.push(Number(node(script, ['google', withCountry], workerOptions).rowsPerSecond));
  }
  const googleRatio = pairRatios(googleMembers, googleRaw);
  const googleFileRatio = pairRatios(google, googleRaw);
  const smallRss = Number(node(script, ['pipeline', small], csvOptions).peakRssMb);
  const defaultRss = Number(node(script, ['pipeline', large]).peakRssMb);
  const ratio = pairRatios(pipeline, raw);
  const quotedRatio = pairRatios(pipelineQuoted, raw);
  const worstRatio = pairRatios(pipelineDistinct, rawDistinct);
  const perSecond = (values: number[]) => `${Math.round(median(values)).toLocaleString('en-US')} rows/s`;
  rows.push(
    ['audience: parse + normalise + hash (1,000,000 rows)', perSecond(pipeline), `worker's options: ${workerOptions}`],
    ['audience: raw SHA-256 of the same values', perSecond(raw), ''],
    [
      'audience: pipeline / raw hashing (median of pair ratios)',
      `${ratio.median.toFixed(2)} (pairs ${ratio.spread})`,
      ratio.median >= 0.5 ? 'goal ≥ 0.50 met' : 'goal ≥ 0.50 MISSED',
    ],
    [
      'audience: the same, every field quoted',
      `${perSecond(pipelineQuoted)}: ${quotedRatio.median.toFixed(2)} (pairs ${quotedRatio.spread})`,
      'records holding quotes take the quoted path',
    ],
    [
      'audience: the same, no name or zip repeating',
      `${perSecond(pipelineDistinct)} against ${perSecond(rawDistinct)}: ${worstRatio.median.toFixed(2)} (pairs ${worstRatio.spread})`,
      'worst case: nothing remembered is used again',
    ],
    [
      'audience: peak RSS, 1,000,000 rows',
      `${median(rss)} MB`,
      median(rss) < 150 ? `goal < 150 MB met (CSV functions' ${csvOptions})` : 'goal < 150 MB MISSED',
    ],
    ['audience: peak RSS, 250,000 rows', `${smallRss} MB`, 'flat with file size'],
    [
      'audience, search ads: Google normalise + hash (1,000,000 rows)',
      perSecond(googleMembers),
      'email, phone with +, names, US address; rows split into cells',
    ],
    ['audience, search ads: raw SHA-256 of the same values', perSecond(googleRaw), '4 digests a row; country and zip go in clear'],
    [
      'audience, search ads: normalise + hash / raw hashing (median of pair ratios)',
      `${googleRatio.median.toFixed(2)} (pairs ${googleRatio.spread})`,
      googleRatio.median >= 0.7 ? 'goal ≥ 0.70 met' : 'goal ≥ 0.70 MISSED',
    ],
    [
      'audience, search ads: the same read from the CSV file',
      `${perSecond(google)}: ${googleFileRatio.median.toFixed(2)} of raw (pairs ${googleFileRatio.spread})`,
      'parsing included, as the job runs it',
    ],
    ['audience: peak RSS, 1,000,000 rows, Node defaults', `${defaultRss} MB`, `without ${csvOptions}`],
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function coldStartFigures(): Promise<void> {
  const { functions, baselines } = await coldStart(workDir);
  const googleAds = baselines.find((baseline) => baseline.name === 'google-ads-api')?.importMs ?? 0;
  const facebook = baselines.find((baseline) => baseline.name === 'facebook-nodejs-business-sdk')?.importMs ?? 0;
  const floor = baselines.find((baseline) => baseline.name === 'floor')?.importMs ?? 0;
  for (const figures of functions) {
    const goals = [
      `${(figures.importMs / floor).toFixed(2)}× the floor`,
      googleAds / figures.importMs >= 10
        ? `${(googleAds / figures.importMs).toFixed(1)}× google-ads-api`
        : `only ${(googleAds / figures.importMs).toFixed(1)}× google-ads-api (goal 10×)`,
      figures.importMs < facebook ? 'faster than facebook sdk' : 'NOT faster than facebook sdk',
      figures.foreignCode.length === 0 ? 'no other platform’s code' : `HOLDS ${figures.foreignCode.join(', ')} code`,
    ];
    rows.push([`cold start: ${figures.name}`, `${kb(figures.bytes)} / ${kb(figures.gzipBytes)} gz, ${figures.importMs.toFixed(1)} ms`, goals.join('; ')]);
  }
  for (const figures of baselines)
    rows.push([
      `cold start baseline: ${figures.name}`,
      `${kb(figures.bytes)} / ${kb(figures.gzipBytes)} gz, ${figures.importMs.toFixed(1)} ms`,
      figures.name === 'floor' ? 'middy + zod + one DynamoDB document-client read, same bundling' : 'one-line handler, same bundling',
    ]);
}

async function warmOverheadFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-'));
  process.env.LOG_LEVEL = 'SILENT';
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir });
  try {
    const { warmOverhead } = await import('./warm-overhead.ts');
    const figures = await warmOverhead(stack.apiKey);
    const { auditOverhead } = await import('./audit-overhead.ts');
    const audit = await auditOverhead(stack.apiKey, `${stack.sandboxes.social?.url}/__sandbox/clock`);
    for (const [name, overhead] of [
      ['audit: store write (create_user, event in its transaction)', audit.storeWrite],
      ['audit: platform write (one upstream call, then the event)', audit.platformWrite],
    ] as const) {
      const added = (overhead.ratio - 1) * 100;
      rows.push([
        name,
        `p50 ${(overhead.withMedianUs / 1000).toFixed(2)} ms with, ${(overhead.withoutMedianUs / 1000).toFixed(2)} ms without`,
        `+${added.toFixed(0)}% (pairs ${overhead.spread})${added < 10 ? '' : ' (goal under 10% MISSED)'}`,
      ]);
    }
    const { controlRoundTrips } = await import('./control-round-trips.ts');
    for (const trip of await controlRoundTrips(stack)) {
      rows.push([
        `upstream: ${trip.name}`,
        `${trip.reads} read + ${trip.writes} write`,
        trip.reads === 1 && trip.writes === 1 ? 'goal met' : 'goal MISSED (one read, one write)',
      ]);
    }
    const { metricsReads } = await import('./metrics-reads.ts');
    for (const figure of await metricsReads(stack)) {
      rows.push([
        `upstream: many-campaign reader, ${figure.platform}, ${figure.campaigns} campaign${figure.campaigns === 1 ? '' : 's'}, 7 days`,
        `${figure.recorded} request${figure.recorded === 1 ? '' : 's'} (${figure.rows} rows)`,
        figure.recorded === 1 && figure.requests === 1 ? 'goal met (one per window)' : `one query, ${figure.requests} requests (pages or slices)`,
      ]);
    }
    rows.push(
      [
        'warm: full middleware stack',
        `${figures.fullMedianUs.toFixed(1)} µs median, ${figures.fullP99Us.toFixed(1)} µs p99`,
        'validated operation, in-process',
      ],
      [
        'warm: bare handler, same work',
        `${figures.bareMedianUs.toFixed(1)} µs median, ${figures.bareP99Us.toFixed(1)} µs p99`,
        `overhead ${(figures.fullMedianUs - figures.bareMedianUs).toFixed(1)} µs at the median`,
      ],
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The local stack as `npm start` runs it, in its own process so the load generator does not share its CPU time. */
async function endToEndFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-e2e-'));
  const stack = await startStackProcess({ ...initialEnv, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: 'bench-api-key-0000000000000000' });
  try {
    const load = await loadTest(stack.url, 'bench-api-key-0000000000000000');
    rows.push([
      'e2e: get_campaigns_list, 50 connections, 20 s',
      `${Math.round(load.requestsPerSecond)} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms`,
      `${load.total} requests, ${load.errors} errors, ${load.non2xx} non-2xx${load.errors + load.non2xx === 0 ? '' : ' (goal 0 MISSED)'}`,
    ]);
    const trips = await roundTrips(stack.url, 'bench-api-key-0000000000000000', {
      searchads: stack.sandboxes.searchads as string,
      social: stack.sandboxes.social as string,
    });
    rows.push(
      [
        'upstream: create_search_campaign, cold token cache',
        `${trips.createCampaignCold.mutate} mutate + ${trips.createCampaignCold.token} token`,
        trips.createCampaignCold.mutate === 1 && trips.createCampaignCold.total === 2 ? 'goal met' : 'goal MISSED',
      ],
      [
        'upstream: create_search_campaign, warm token cache',
        `${trips.createCampaignWarm.mutate} mutate + ${trips.createCampaignWarm.token} token`,
        trips.createCampaignWarm.mutate === 1 && trips.createCampaignWarm.total === 1 ? 'goal met' : 'goal MISSED',
      ],
      [
        'upstream: 25,000-row social audience',
        `${trips.audience25k.create} create + ${trips.audience25k.uploads} uploads`,
        trips.audience25k.uploads === 3 ? 'goal met' : 'goal MISSED',
      ],
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The optimizer at scale against an in-process local stack (bench/rules.ts). */
async function rulesFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-rules-'));
  process.env.LOG_LEVEL = 'SILENT';
  process.env.RULES_INTERVAL_SECONDS = '86400'; // the stack's own scheduler stays out of the measured pass
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, webhookReceiverPort: 0 });
  try {
    const { rulesBench } = await import('./rules.ts');
    const figures = await rulesBench(stack);
    const reads = figures.metricReadsPerGroup;
    const range = ([low, high]: [number, number]) => (low === high ? String(low) : `${low}–${high}`);
    rows.push(
      [
        `rules: ${figures.rules.toLocaleString('en')} rules, ${figures.campaigns.toLocaleString('en')} campaigns, ${figures.groups.toLocaleString('en')} groups`,
        `${figures.wallSeconds.toFixed(0)} s to seed, schedule and run`,
        'one scheduler pass, every group run once',
      ],
      [
        'rules: metric reads per group (2 windows)',
        `${range(reads.queries)} queries, ${range(reads.requests)} requests (${figures.upstreamPerGroup.toFixed(2)} upstream requests a group in all)`,
        reads.requests[0] === reads.windowsPerGroup && reads.requests[1] === reads.windowsPerGroup
          ? 'goal met (one per window)'
          : 'goal MISSED (one per window)',
      ],
      [
        'rules: store per rule, scheduling',
        `${figures.store.schedule.reads.toFixed(2)} reads, ${figures.store.schedule.writes.toFixed(2)} writes`,
        'per group: the due index, one claim (1 write a group)',
      ],
      [
        'rules: store per rule, its run',
        `${figures.store.run.reads.toFixed(2)} reads, ${figures.store.run.writes.toFixed(2)} writes`,
        'per group: its rules, the group; its end (group, index item moved, log) and the quota count',
      ],
      [
        'rules: evaluator CPU',
        `${Math.round(figures.evaluatorRulesPerCpuSecond).toLocaleString('en')} rules/s against ${Math.round(figures.bareRulesPerCpuSecond).toLocaleString('en')} bare`,
        `evaluator CPU / bare CPU ${figures.ratio.median.toFixed(2)}× (pairs ${figures.ratio.spread}); exact decimals against floats`,
      ],
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Backtests at scale, and the evaluator with compared windows, against an in-process local stack (bench/rule-backtest.ts). */
async function backtestFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-backtest-'));
  process.env.LOG_LEVEL = 'SILENT';
  process.env.RULES_INTERVAL_SECONDS = '86400';
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, webhookReceiverPort: 0 });
  try {
    const { backtestBench } = await import('./rule-backtest.ts');
    const { platforms, compareTo } = await backtestBench(stack);
    for (const figures of platforms)
      rows.push(
        [
          `backtest: ${figures.platform}, ${figures.backtests} rules × 100 of 500 campaigns × 30 days`,
          `p50 ${figures.secondsEach.p50.toFixed(2)} s, p95 ${figures.secondsEach.p95.toFixed(2)} s a backtest; ${figures.actions.toLocaleString('en')} simulated actions`,
          'through the gateway, one at a time',
        ],
        [
          `backtest: ${figures.platform}, upstream per backtest`,
          `${figures.figureQueries.toFixed(2)} figures queries (${figures.figureRequests.toFixed(2)} requests with pages), ${figures.upstream.toFixed(2)} requests in all`,
          figures.figureQueries === 1 ? 'goal met (one figures read per (user, platform))' : 'goal MISSED (one figures read per (user, platform))',
        ],
      );
    rows.push([
      'rules: evaluator CPU with compareTo / without',
      `${compareTo.ratio.toFixed(2)}× (pairs ${compareTo.spread})`,
      '100 rules × 100 campaigns, one condition comparing LAST_3_DAYS to LAST_14_DAYS against one on LAST_3_DAYS alone',
    ]);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A million contacts into a Customer Match list through an in-process local stack (bench/google-audience.ts). */
async function googleAudienceFigures(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-google-'));
  process.env.LOG_LEVEL = 'WARN';
  const apiKey = 'bench-api-key-0000000000000000';
  process.env.LOCAL_API_KEY = apiKey;
  const { startLocalStack } = await import('../local/stack.ts');
  const stack = await startLocalStack({ port: 0, dataDir, webhookReceiverPort: 0 });
  try {
    const { googleAudienceBench } = await import('./google-audience.ts');
    rows.push(...(await googleAudienceBench(stack, apiKey)));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const only = process.argv[2];
if (!only || only === 'cold') await coldStartFigures();
if (!only || only === 'warm') await warmOverheadFigures();
if (!only || only === 'audience') await audiencePipeline();
if (!only || only === 'google') await googleAudienceFigures();
if (!only || only === 'e2e') await endToEndFigures();
if (!only || only === 'rules') await rulesFigures();
if (!only || only === 'backtest') await backtestFigures();
if (!only || only === 'jobs') {
  // its own process, started from the environment this run began with (see bench/audience-jobs.ts)
  const output = execFileSync(join('node_modules', '.bin', 'tsx'), ['bench/audience-jobs.ts', workDir], {
    encoding: 'utf8',
    env: initialEnv,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  rows.push(...(JSON.parse(output.trim().split('\n').at(-1) as string) as Array<[string, string, string]>));
}

if (!only || only === 'launch') {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-launch-'));
  const stack = await startStackProcess({ ...initialEnv, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: 'bench-api-key-0000000000000000' });
  try {
    rows.push(
      ...(await launchCalls(
        stack.url,
        { social: stack.sandboxes.social as string, professional: stack.sandboxes.professional as string },
        'bench-api-key-0000000000000000',
      )),
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!only || only === 'leads') {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-leads-'));
  const stack = await startStackProcess({ ...initialEnv, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: 'bench-api-key-0000000000000000' });
  try {
    rows.push(...(await leadFigures(stack, 'bench-api-key-0000000000000000')));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!only || only === 'conversions') {
  rows.push(...hashingFigures());
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-conversions-'));
  const stack = await startStackProcess({ ...initialEnv, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: 'bench-api-key-0000000000000000' });
  try {
    rows.push(...(await conversionFigures(stack, 'bench-api-key-0000000000000000')));
    rows.push(...(await sendFigures(stack, 'bench-api-key-0000000000000000')));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!only || only === 'reports') {
  rows.push(...exportFigures());
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-bench-reports-'));
  const stack = await startStackProcess({ ...initialEnv, DATA_DIR: dataDir, LOG_LEVEL: 'WARN', LOCAL_API_KEY: 'bench-api-key-0000000000000000' });
  try {
    rows.push(...(await reportCallFigures(stack, 'bench-api-key-0000000000000000')));
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!only || only === 'media') {
  // its own process too: it starts a local stack in process, with the social platform's URLs its own
  const output = execFileSync(join('node_modules', '.bin', 'tsx'), ['bench/media-jobs.ts', workDir], {
    encoding: 'utf8',
    env: initialEnv,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  rows.push(...(JSON.parse(output.trim().split('\n').at(-1) as string) as Array<[string, string, string]>));
}

const width = Math.max(...rows.map(([name]) => name.length));
const figureWidth = Math.max(...rows.map(([, figure]) => figure.length));
console.log(`\n${'benchmark'.padEnd(width)}  ${'figure'.padEnd(figureWidth)}  note`);
console.log(`${'-'.repeat(width)}  ${'-'.repeat(figureWidth)}  ${'-'.repeat(24)}`);
for (const [name, figure, note] of rows) console.log(`${name.padEnd(width)}  ${figure.padEnd(figureWidth)}  ${note}`);
process.exit(0);
rmSync(workDir, { recursive: true, force: true });
