/**
 * How every function is bundled, in one place: the CDK stack hands these to NodejsFunction and the
 * benchmark builds the same bundles with esbuild to measure them.
 */
export const NODE_TARGET = 'node24';

/** Lambda's ESM runtime has no `require`; bundled CommonJS dependencies need one. */
export const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export const FUNCTION_BUNDLING = {
  minify: true,
  sourceMap: true,
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  externalModules: [] as string[],
} as const;
