import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleFunction, nodeOptionsOf } from '../infra/bundling.ts';
import { bundleDeployedFunctions } from '../infra/bundle.ts';
import { fallbackRoute, routes } from '../functions/routes.ts';
import { workers } from '../functions/workers/index.ts';
import type { Platform } from '../shared/core/errors.ts';
import type { FunctionDeclaration } from '../shared/core/function-declaration.ts';

/**
 * Cold start: every function's bundle as the stack deploys it (the one esbuild run of infra/bundle.ts),
 * its size minified and gzipped, and its import time: the median of 9 fresh Node processes (in
 * rounds across all bundles), timed inside each process around the `import()` so Node's own start is
 * left out, with the function's NODE_OPTIONS (as Lambda starts it). Beside them, in the same run and
 * bundled and started the same way: the floor (middy, zod and one read
 * through the DynamoDB document client, bench/baselines/floor.ts), which each function's time is
 * reported against, and one-line handlers on the platforms' own Node libraries.
 */
export interface BundleFigures {
  name: string;
  bytes: number;
  gzipBytes: number;
  importMs: number;
  platform?: Platform;
  foreignCode: string[];
}

const IMPORT_RUNS = 9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The simple reads: issue #61 asks each to import in no more than the floor's time (their schemas are on zod's mini API, docs/deploying.md). */
export const SIMPLE_READS = [
  'get_profile',
  'get_settings',
  'list_webhook_events',
  'list_rule_runs',
  'get_campaign_optimization_history',
  'get_conversion_event',
  'list_conversion_events',
] as const;

/** Strings only one platform's adapter contains: a bundle holding another's is a leak of code. */
export const PLATFORM_MARKERS: Record<Platform, string> = {
  social: 'x-business-use-case-usage',
  searchads: 'googleAds:mutate',
  professional: 'generateUploadUrl',
};

/**
 * One fresh Node process importing the bundle, timed inside the process around the `import()`, started
 * with the options Lambda starts the function with (its NODE_OPTIONS: the source map is read at import).
 */
function importOnce(file: string, nodeOptions: string): number {
  const script = `const started = process.hrtime.bigint(); import(${JSON.stringify(file)}).then(() => console.log(Number(process.hrtime.bigint() - started) / 1e6));`;
  const output = execFileSync(process.execPath, [...nodeOptions.split(' '), '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'us-east-1' },
  });
  return Number(output.trim().split('\n').at(-1));
}

/**
 * Sizes, foreign code and the median import time of every bundle. The imports run in rounds (each
 * round imports every bundle once), so the machine's drift during the run touches all alike.
 */
function measureAll(bundles: Array<{ name: string; file: string; nodeOptions: string; platform?: Platform; everyPlatform?: boolean }>): BundleFigures[] {
  const times = bundles.map(() => [] as number[]);
  for (let round = 0; round < IMPORT_RUNS; round++)
    for (const [index, entry] of bundles.entries()) times[index]?.push(importOnce(entry.file, entry.nodeOptions));
  return bundles.map(({ name, file, platform, everyPlatform }, index) => {
    const code = readFileSync(file);
    const text = code.toString('utf8');
    const foreignCode = Object.entries(PLATFORM_MARKERS)
      .filter(([other, marker]) => !everyPlatform && other !== platform && text.includes(marker))
      .map(([other]) => other);
    return { name, bytes: code.length, gzipBytes: gzipSync(code).length, importMs: median(times[index] ?? []), ...(platform ? { platform } : {}), foreignCode };
  });
}

export async function coldStart(workDir: string): Promise<{ functions: BundleFigures[]; baselines: BundleFigures[] }> {
  const functionBundles = [];
  const built = await bundleDeployedFunctions(join(workDir, 'functions'));
  for (const route of [...routes, fallbackRoute, ...workers] as ReadonlyArray<
    Pick<FunctionDeclaration, 'operation' | 'entry' | 'platform' | 'callsPlatforms' | 'nodeOptions'>
  >) {
    const file = join(built.folderOf(route.operation), 'index.mjs');
    // a worker that calls every platform (the audience jobs, the lifecycle) holds each one's code by design
    functionBundles.push({
      name: route.operation,
      file,
      nodeOptions: nodeOptionsOf(route),
      ...('platform' in route && route.platform ? { platform: route.platform } : {}),
      ...('callsPlatforms' in route && route.callsPlatforms ? { everyPlatform: true } : {}),
    });
  }
  const baselineBundles = [];
  for (const library of ['floor', 'google-ads-api', 'facebook-nodejs-business-sdk', 'linkedin-api-client']) {
    const file = join(workDir, 'baselines', library, 'index.mjs');
    await bundleFunction(`bench/baselines/${library}.ts`, file);
    // started as Lambda starts a function without options of its own
    baselineBundles.push({ name: library, file, nodeOptions: nodeOptionsOf({}) });
  }
  const figures = measureAll([...functionBundles, ...baselineBundles]);
  return { functions: figures.slice(0, functionBundles.length), baselines: figures.slice(functionBundles.length) };
}
