import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUNDLES_FAILED_FILE, BUNDLES_META_FILE } from '../helpers/function-bundles.ts';

/**
 * Every function bundled once for the whole run, by the same esbuild run `cdk synth` makes
 * (`npm run bundle`, infra/bundle.ts), into dist/functions: the synth test deploys those folders, its
 * IAM check reads their modules and the bundle test runs them. The build starts here, in a process of
 * its own at the test workers' CPU priority (nice 10, below the shared stack), and is not waited for:
 * vitest runs every project's global setup before any test, and the two files that read the bundles
 * (in the process group, after the stack's files) wait for them themselves (test/helpers/function-bundles.ts).
 * At the lowest priority it was starved until the stack's files ended, and those two files waited on it.
 * It is killed at the end of the run if a run stopped early left it building.
 */
const shared = globalThis as typeof globalThis & { adApiFunctionBundles?: ChildProcess };
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export default function setup(): () => void {
  if (!shared.adApiFunctionBundles) {
    // a build of an earlier run is never taken for this one's
    rmSync(BUNDLES_META_FILE, { force: true });
    rmSync(BUNDLES_FAILED_FILE, { force: true });
    const build = spawn('nice', ['-n', '10', process.execPath, 'infra/bundle.ts'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    build.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    build.once('exit', (code, signal) => {
      if (code !== 0) writeFileSync(BUNDLES_FAILED_FILE, `npm run bundle ended ${code ?? signal}:\n${errors}`);
    });
    build.once('error', (error) => writeFileSync(BUNDLES_FAILED_FILE, error.message));
    shared.adApiFunctionBundles = build;
  }
  return () => {
    shared.adApiFunctionBundles?.kill();
  };
}
