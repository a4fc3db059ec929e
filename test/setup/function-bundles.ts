import { bundleDeployedFunctions } from '../../infra/bundle.ts';

/**
 * Every function bundled once for the whole run, by the same esbuild run `cdk synth` makes
 * (infra/bundle.ts), into dist/functions: the synth test deploys those folders, its IAM check reads
 * their modules and the bundle test runs them. The `static` and `process` projects both ask; both
 * run in this one main process, so the first builds and the second waits for the same build.
 */
const shared = globalThis as typeof globalThis & { adApiFunctionBundles?: Promise<unknown> };

export default async function setup(): Promise<void> {
  shared.adApiFunctionBundles ??= bundleDeployedFunctions();
  await shared.adApiFunctionBundles;
}
