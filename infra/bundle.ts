import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { documentedRoutes, fallbackRoute, routes } from '../functions/routes.ts';
import { workers } from '../functions/workers/index.ts';
import { buildOpenApiDocument } from '../shared/docs/openapi.ts';
import { bundleFunctions, type FunctionBundles } from './bundling.ts';

/**
 * `npm run bundle`: every function the stack deploys, bundled by one esbuild run into dist/functions
 * (`cdk synth` runs it first; the synth test, the IAM check and the bundle test read the same folder).
 */
export const deployedFunctions = [...routes, fallbackRoute, ...workers];
export const BUNDLE_DIRECTORY = join(fileURLToPath(new URL('../', import.meta.url)), 'dist', 'functions');

export function bundleDeployedFunctions(directory = BUNDLE_DIRECTORY, options: { sourcemap?: boolean } = {}): Promise<FunctionBundles> {
  return bundleFunctions(directory, deployedFunctions, { ...options, openApiDocument: () => buildOpenApiDocument(documentedRoutes) });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const bundles = await bundleDeployedFunctions();
  console.log(`${deployedFunctions.length} functions bundled into ${bundles.directory} in ${Math.round(performance.now() - started)} ms`);
}
