import { rmSync, writeFileSync } from 'node:fs';
import { bundleDeployedFunctions } from '../../infra/bundle.ts';
import { BUNDLES_FAILED_FILE, BUNDLES_META_FILE } from '../helpers/function-bundles.ts';

/**
 * Every function bundled once for the whole run, by the same esbuild run `cdk synth` makes
 * (infra/bundle.ts), into dist/functions: the synth test deploys those folders, its IAM check reads
 * their modules and the bundle test runs them. The build starts here and is not waited for: vitest runs
 * every project's global setup before any test, and the two files that read the bundles wait for them
 * themselves (test/helpers/function-bundles.ts), so the shared stack's tests run while esbuild works.
 * The `static` and `process` projects both ask; both run in this one main process: one build.
 */
const shared = globalThis as typeof globalThis & { adApiFunctionBundles?: Promise<unknown> };

export default function setup(): void {
  if (shared.adApiFunctionBundles) return;
  // a build of an earlier run is never taken for this one's
  rmSync(BUNDLES_META_FILE, { force: true });
  rmSync(BUNDLES_FAILED_FILE, { force: true });
  shared.adApiFunctionBundles = bundleDeployedFunctions().catch((error: Error) => writeFileSync(BUNDLES_FAILED_FILE, error.stack ?? error.message));
}
