import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { removeAbandonedBuilds } from '../../infra/bundling.ts';
import { buildLocalBundles, LOCAL_BUNDLE_DIRECTORY, LOCAL_BUNDLES_FAILED_FILE } from '../helpers/local-bundles.ts';

/**
 * `npm start` and the admin CLI bundled once for the run (test/helpers/local-bundles.ts), for the child
 * processes of the process group. The build starts here and is not waited for: the process group's files
 * come after the stack's, and each child waits for its bundle itself. A build of an earlier run is never
 * taken for this one's: it is removed first, and the new one is renamed into place whole.
 */
export default function setup(): void {
  rmSync(LOCAL_BUNDLE_DIRECTORY, { recursive: true, force: true });
  rmSync(LOCAL_BUNDLES_FAILED_FILE, { force: true });
  removeAbandonedBuilds(LOCAL_BUNDLE_DIRECTORY);
  const building = `${LOCAL_BUNDLE_DIRECTORY}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  buildLocalBundles(building)
    .then(() => renameSync(building, LOCAL_BUNDLE_DIRECTORY))
    .catch((error: unknown) => writeFileSync(LOCAL_BUNDLES_FAILED_FILE, (error as Error).message));
}
