import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { FUNCTION_BUNDLING } from '../infra/bundling.ts';
import { fallbackRoute, routes, type Platform } from '../shared/routes.ts';

/**
 * Cold start: every function bundled exactly as the stack bundles it (esbuild, the stack's options),
 * its size minified and gzipped, and its import time: the median of 9 fresh Node processes, timed
 * inside each process around the `import()` so Node's own start is left out. Beside them, in the same
 * run, one-line handlers on the platforms' own Node libraries, bundled the same way.
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

/** Strings only one platform's adapter contains: a bundle holding another's is a leak of code. */
const PLATFORM_MARKERS: Record<Platform, string> = {
  social: 'appsecret_proof',
  searchads: 'googleAds:mutate',
  professional: 'generateUploadUrl',
};

async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    minify: FUNCTION_BUNDLING.minify,
    sourcemap: FUNCTION_BUNDLING.sourceMap,
    target: FUNCTION_BUNDLING.target,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: FUNCTION_BUNDLING.banner },
    external: [...FUNCTION_BUNDLING.externalModules],
    logLevel: 'error',
  });
}

function importTime(file: string): number {
  const times: number[] = [];
  const script = `const started = process.hrtime.bigint(); import(${JSON.stringify(file)}).then(() => console.log(Number(process.hrtime.bigint() - started) / 1e6));`;
  for (let run = 0; run < IMPORT_RUNS; run++) {
    const output = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } });
    times.push(Number(output.trim().split('\n').at(-1)));
  }
  return median(times);
}

function measure(name: string, file: string, platform?: Platform): BundleFigures {
  const code = readFileSync(file);
  const text = code.toString('utf8');
  const foreignCode = Object.entries(PLATFORM_MARKERS)
    .filter(([other, marker]) => other !== platform && text.includes(marker))
    .map(([other]) => other);
  return { name, bytes: code.length, gzipBytes: gzipSync(code).length, importMs: importTime(file), ...(platform ? { platform } : {}), foreignCode };
}

export async function coldStart(workDir: string): Promise<{ functions: BundleFigures[]; baselines: BundleFigures[] }> {
  const functions: BundleFigures[] = [];
  for (const route of [...routes, fallbackRoute]) {
    const outfile = join(workDir, 'functions', route.operation, 'index.mjs');
    await bundle(route.entry, outfile);
    functions.push(measure(route.operation, outfile, 'platform' in route ? route.platform : undefined));
  }
  const baselines: BundleFigures[] = [];
  for (const library of ['google-ads-api', 'facebook-nodejs-business-sdk', 'linkedin-api-client']) {
    const outfile = join(workDir, 'baselines', library, 'index.mjs');
    await bundle(`bench/baselines/${library}.ts`, outfile);
    baselines.push(measure(library, outfile));
  }
  return { functions, baselines };
}
