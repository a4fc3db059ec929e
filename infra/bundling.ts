import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

/**
 * How every function is bundled, in one place: the CDK stack hands these to NodejsFunction and the
 * benchmark builds the same bundles with esbuild to measure them.
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
const builtinAliases = Object.entries(BUILTIN_SHIMS).flatMap(
  ([name, shim]) =>
    [
      [name, shim],
      [`node:${name}`, shim],
    ] as const,
);
const projectRoot = fileURLToPath(new URL('../', import.meta.url));

export const FUNCTION_BUNDLING = {
  minify: true,
  sourceMap: true,
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  externalModules: [] as string[],
  /** the CDK passes these to esbuild's command line, run in the project root */
  esbuildArgs: { '--alias': builtinAliases.map(([name, shim]) => `${name}=./${shim}`) },
} as const;

const esbuildOptions = (entry: string) =>
  ({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: FUNCTION_BUNDLING.minify,
    target: FUNCTION_BUNDLING.target,
    mainFields: [...FUNCTION_BUNDLING.mainFields],
    banner: { js: FUNCTION_BUNDLING.banner },
    external: [...FUNCTION_BUNDLING.externalModules],
    alias: Object.fromEntries(builtinAliases.map(([name, shim]) => [name, `${projectRoot}${shim}`])),
    logLevel: 'error',
  }) satisfies BuildOptions;

/** Builds one function's bundle with esbuild exactly as the stack does (the bench and the bundle test). */
/** `sourcemap: false` for a bundle that is only run, never debugged (a test of its behaviour). */
export async function bundleFunction(entry: string, outfile: string, { sourcemap = FUNCTION_BUNDLING.sourceMap }: { sourcemap?: boolean } = {}): Promise<void> {
  await build({ ...esbuildOptions(entry), outfile, sourcemap });
}

/** The modules one function's bundle holds, with the bytes each contributes (0: tree-shaken away). */
export async function bundledModules(entry: string): Promise<Map<string, number>> {
  const result = await build({ ...esbuildOptions(entry), write: false, outfile: 'index.mjs', metafile: true });
  const [output] = Object.values(result.metafile.outputs).filter((entryOutput) => entryOutput.entryPoint);
  return new Map(Object.entries(output?.inputs ?? {}).map(([path, input]) => [path, input.bytesInOutput]));
}
