import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { ESM_REQUIRE_BANNER, NODE_TARGET } from '../../infra/bundling.ts';

/**
 * `npm start` and the admin CLI, each prebuilt into one file with the packages they use (but s3rver), for the
 * tests' child processes (docs/testing.md, "Child stacks"): a child loads one module instead of resolving and
 * linking some 700 of the project's and the packages' CommonJS files (a start: 3.7 → 2.9 CPU-seconds,
 * measured). Two things keep a bundle the same program as its sources:
 * - every module's `import.meta.url` stays its source file's URL, so paths made from it (a function's
 *   entry, an emulator thread's module, a sandbox's files) are the same;
 * - the modules the stack finds by path at run time (every operation's declaration, api and handler) are
 *   registered under their source URLs, where `importModule` (shared/core/import-module.ts) takes them, so
 *   they share the bundle's one copy of the clock and the configuration.
 */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const LOCAL_BUNDLE_DIRECTORY = join(projectRoot, 'node_modules', '.cache', 'local-bundles');
export const LOCAL_BUNDLES = {
  'local/main.ts': join(LOCAL_BUNDLE_DIRECTORY, 'main.mjs'),
  'infra/admin.ts': join(LOCAL_BUNDLE_DIRECTORY, 'admin.mjs'),
} as const;

/** packages left to load from node_modules: ones that read their own files beside their code */
const EXTERNAL = ['s3rver'];

/** the modules found by path: functions/**​/declaration.ts, api.ts and handler.ts */
function modulesFoundByPath(dir = join(projectRoot, 'functions')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modulesFoundByPath(path);
    return ['declaration.ts', 'api.ts', 'handler.ts'].includes(entry.name) ? [path] : [];
  });
}

const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The queue emulator's thread, bundled too: fauxqs and fastify are some 670 modules, most of the thread's
 * start. dynalite's thread is not: dynalite requires its actions by computed name, which a bundle cannot follow.
 */
const THREADS = ['local/queue-thread.ts'];
const threadBundle = (source: string) => join(LOCAL_BUNDLE_DIRECTORY, `${basename(source, '.ts')}.mjs`);

const sharedOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  logLevel: 'warning',
  plugins: [sourceUrls],
} satisfies BuildOptions;

/** Builds the bundles into `directory` (which is then renamed to LOCAL_BUNDLE_DIRECTORY); resolves when they are written. */
export async function buildLocalBundles(directory = LOCAL_BUNDLE_DIRECTORY): Promise<void> {
  const registry = modulesFoundByPath()
    .map((path) => `  ${JSON.stringify(pathToFileURL(path).href)}: () => import(${JSON.stringify(`./${relative(projectRoot, path)}`)}),`)
    .join('\n');
  const threads = Object.fromEntries(THREADS.map((source) => [pathToFileURL(join(projectRoot, source)).href, pathToFileURL(threadBundle(source)).href]));
  await Promise.all([
    ...THREADS.map((source) => build({ ...sharedOptions, entryPoints: [join(projectRoot, source)], outfile: join(directory, basename(threadBundle(source))) })),
    ...Object.entries(LOCAL_BUNDLES).map(([source, bundle]) =>
      build({
        ...sharedOptions,
        stdin: {
          contents: [
            `globalThis[Symbol.for('ad-campaign-api.bundled-modules')] = {\n${registry}\n};`,
            `globalThis[Symbol.for('ad-campaign-api.bundled-threads')] = ${JSON.stringify(threads)};`,
            `await import(${JSON.stringify(`./${source}`)});\n`,
          ].join('\n'),
          resolveDir: projectRoot,
          sourcefile: `${source}.bundle-entry.ts`,
          loader: 'ts',
        },
        external: EXTERNAL,
        outfile: join(directory, basename(bundle)),
      }),
    ),
  ]);
}

/** Where a failed build says why (test/setup/local-bundles.ts). */
export const LOCAL_BUNDLES_FAILED_FILE = `${LOCAL_BUNDLE_DIRECTORY}.failed`;

/**
 * The bundle of `source` this run built, once it is there: the build starts with the run (the process
 * group's global setup) and is renamed into place whole when done.
 */
export async function localBundle(source: keyof typeof LOCAL_BUNDLES, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(LOCAL_BUNDLES[source])) {
    if (existsSync(LOCAL_BUNDLES_FAILED_FILE)) throw new Error(`the local stack could not be bundled:\n${readFileSync(LOCAL_BUNDLES_FAILED_FILE, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`no bundle of ${source} in ${LOCAL_BUNDLE_DIRECTORY} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return LOCAL_BUNDLES[source];
}
