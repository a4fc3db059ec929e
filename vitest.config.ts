import { defineConfig } from 'vitest/config';

/**
 * Four projects, so a developer can run the fast ones alone (`npx vitest run --project unit`):
 * `unit` runs pure code with no stack and no network; `static` synthesises the CDK stack and bundles
 * checks every bundle's AWS calls against its IAM policy, with no stack either; `stack` runs against one real local stack (gateway, dynalite,
 * s3rver, sandboxes) that global setup starts; `process` starts stacks of its own as child processes (beside the shared one, which global setup starts once for both)
 * (`npm start` killed, restarted, run by the admin CLI) beside that one.
 */
const STATIC = ['test/cdk/**/*.test.ts'];
const PROCESS = [
  'test/integration/*-process.test.ts',
  'test/integration/*-crash.test.ts',
  'test/integration/campaign-control-restart.test.ts',
  'test/integration/clock-ahead.test.ts',
];
const withStack = { globalSetup: ['test/setup/global-stack.ts'], setupFiles: ['test/setup/stack-env.ts'] };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'static', include: STATIC } },
      { extends: true, test: { name: 'stack', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', ...STATIC, ...PROCESS], ...withStack } },
      { extends: true, test: { name: 'process', include: PROCESS, ...withStack } },
    ],
  },
});
