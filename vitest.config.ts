import { defineConfig } from 'vitest/config';

/**
 * Two kinds of test: `unit` runs pure code with no stack and no network; everything else runs
 * against one real local stack (gateway, dynalite, s3rver, sandboxes) that global setup starts.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          globalSetup: ['test/setup/global-stack.ts'],
          setupFiles: ['test/setup/stack-env.ts'],
        },
      },
    ],
  },
});
