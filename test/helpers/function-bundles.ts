import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_DIRECTORY } from '../../infra/bundle.ts';
import { type FunctionBundles, readBundles } from '../../infra/bundling.ts';

/** What the run's one esbuild build leaves when it is done (test/setup/function-bundles.ts), or why it failed. */
export const BUNDLES_META_FILE = join(BUNDLE_DIRECTORY, 'bundles.json');
export const BUNDLES_FAILED_FILE = `${BUNDLE_DIRECTORY}.failed`;

/** The run's bundles, once built: the build started with the run and is renamed into place whole when done. */
export async function builtBundles(timeoutMs = 180_000): Promise<FunctionBundles> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(BUNDLES_META_FILE)) {
    if (existsSync(BUNDLES_FAILED_FILE)) throw new Error(`the functions could not be bundled:\n${readFileSync(BUNDLES_FAILED_FILE, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`no bundles in ${BUNDLE_DIRECTORY} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return readBundles(BUNDLE_DIRECTORY);
}
