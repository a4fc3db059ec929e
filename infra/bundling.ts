import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { GENERATED_OPENAPI_DOCUMENT } from '../shared/core/function-declaration.ts';

/**
 * How every function is bundled, in one place (docs/deploying.md, "Bundles"): one esbuild run builds
 * every function's bundle into its own folder (`<dir>/<operation>/index.mjs`, with the files it reads
 * beside it); the CDK stack deploys those folders as they are, and the tests and benchmarks read the
 * same ones. One run over 74 entries shares esbuild's parsing of the common modules: about 11 s on two
 * cores, where one esbuild run per function took minutes.
 */
export const NODE_TARGET = 'node24';

/** Lambda's ESM runtime has no `require`; bundled CommonJS dependencies need one. */
export const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * Builtins a bundle takes as CommonJS (module → shim, relative to the project root). An ESM import of
 * `node:http` builds the module's ESM facade, which reads every export, and `node:http`'s lazy
 * `WebSocket`, `CloseEvent` and `MessageEvent` getters then load Node's whole undici: about 19 ms of a
 * fresh process's start against 2 ms through `require` (measured on Node 24), for a module whose
 * WebSocket no function uses. The AWS SDK's HTTP handler imports both modules this way.
 */
const BUILTIN_SHIMS: Readonly<Record<string, string>> = {
  http: 'infra/node-builtins/http.cjs',
  https: 'infra/node-builtins/https.cjs',
};
const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const aliases = {
  ...Object.fromEntries(
    Object.entries(BUILTIN_SHIMS).flatMap(([name, shim]) => [
      [name, `${projectRoot}${shim}`],
      [`node:${name}`, `${projectRoot}${shim}`],
    ]),
  ),
  // the credentials Lambda gives (the environment), without the chain's other sources (infra/lambda-credentials.ts)
  '@aws-sdk/credential-provider-node': `${projectRoot}infra/lambda-credentials.ts`,
};

const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  minify: true,
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  alias: aliases,
  // the maps give stack traces their files and lines (NODE_OPTIONS below), for which Node needs no sources:
  // without them get_profile's map is 0.6 MB instead of 1.9, and Node reads it at every cold start
  // (about 22 ms less of the import, docs/deploying.md)
  sourcesContent: false,
  logLevel: 'error',
} satisfies BuildOptions;

/** How Lambda starts every function's Node (its `NODE_OPTIONS`): stack traces through the bundle's source map, and the function's own options. */
export function nodeOptionsOf(fn: { nodeOptions?: string }): string {
  return ['--enable-source-maps', fn.nodeOptions].filter(Boolean).join(' ');
}

/** What a function needs of the bundler: its operation (its folder's name), its entry, the files it reads beside it. */
export interface BundledFunction {
  operation: string;
  entry: string;
  /** file name → module specifier, or GENERATED_OPENAPI_DOCUMENT */
  bundledFiles?: Record<string, string>;
}

/** A folder of built bundles, one folder per operation, and what each bundle holds. */
export interface FunctionBundles {
  directory: string;
  /** the folder the stack deploys for one function */
  folderOf(operation: string): string;
  /** the modules one function's bundle holds, with the bytes each contributes (0: tree-shaken away) */
  modulesOf(operation: string): Map<string, number>;
}

const META_FILE = 'bundles.json';

/**
 * Builds every function's bundle in one esbuild run into `directory` (replaced whole: it is written
 * beside it and renamed into place, so a reader never sees half a build). `openApiDocument` writes the
 * document a function serves, when one carries it.
 */
export async function bundleFunctions(
  directory: string,
  functions: readonly BundledFunction[],
  { openApiDocument, sourcemap = true }: { openApiDocument?: () => unknown; sourcemap?: boolean } = {},
): Promise<FunctionBundles> {
  removeAbandonedBuilds(directory);
  const building = `${directory}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const result = await build({
    ...esbuildOptions,
    entryPoints: Object.fromEntries(functions.map((fn) => [`${fn.operation}/index`, fn.entry])),
    outdir: building,
    outExtension: { '.js': '.mjs' },
    sourcemap,
    metafile: true,
  });
  const require = createRequire(import.meta.url);
  for (const fn of functions)
    for (const [name, module] of Object.entries(fn.bundledFiles ?? {})) {
      const target = join(building, fn.operation, name);
      if (module === GENERATED_OPENAPI_DOCUMENT) writeFileSync(target, JSON.stringify(openApiDocument?.() ?? {}));
      else copyFileSync(require.resolve(module), target);
    }
  const modules: Record<string, Record<string, number>> = {};
  for (const output of Object.values(result.metafile.outputs)) {
    const operation = functions.find((fn) => fn.entry === output.entryPoint || output.entryPoint?.endsWith(`/${fn.entry}`))?.operation;
    if (operation) modules[operation] = Object.fromEntries(Object.entries(output.inputs).map(([path, input]) => [path, input.bytesInOutput]));
  }
  writeFileSync(join(building, META_FILE), JSON.stringify(modules));
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(join(directory, '..'), { recursive: true });
  renameSync(building, directory);
  return readBundles(directory);
}

/** Bundles built before (by bundleFunctions), read from their folder. */
export function readBundles(directory: string): FunctionBundles {
  const metaFile = join(directory, META_FILE);
  if (!existsSync(metaFile)) throw new Error(`no function bundles in ${directory}: run \`npm run bundle\` first`);
  const modules = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, Record<string, number>>;
  return {
    directory,
    folderOf(operation) {
      if (!modules[operation]) throw new Error(`no bundle of ${operation} in ${directory}: run \`npm run bundle\` again`);
      return join(directory, operation);
    },
    modulesOf: (operation) => new Map(Object.entries(modules[operation] ?? {})),
  };
}

/** One bundle built alone, exactly as bundleFunctions builds each (a benchmark's baseline, a worker run in a child process). */
export async function bundleFunction(entry: string, outfile: string, { sourcemap = true }: { sourcemap?: boolean } = {}): Promise<void> {
  await build({ ...esbuildOptions, entryPoints: [entry], outfile, sourcemap });
}

/**
 * Removes the half-built folders (`<directory>.building-<pid>`) of builds whose process is gone: a build
 * killed part-way (a test run stopped early kills its build) leaves one of some 280 MB.
 */
export function removeAbandonedBuilds(directory: string): void {
  const parent = dirname(directory);
  const prefix = `${basename(directory)}.building-`;
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (pid === process.pid || (Number.isInteger(pid) && isRunning(pid))) continue;
    rmSync(join(parent, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
