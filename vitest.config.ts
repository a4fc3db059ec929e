import { defineConfig } from 'vitest/config';

/**
 * Four projects (and `unit-fresh`, two unit files that each need a process of their own), so a developer
 * can run the fast ones alone (`npx vitest run --project unit`):
 * `unit` runs pure code with no stack and no network; `stack` runs against one real local stack
 * (gateway, dynalite, s3rver, sandboxes) that global setup starts; `static` holds the typed client's
 * type checks, CPU-bound and stack-free; `process` starts stacks of its own as child processes (`npm
 * start` killed, restarted, run by the admin CLI) beside that one, after the others, and runs the
 * checks of the deployed bundles (the CDK synth with its IAM check, the bundle test). Within a group, vitest queues the projects' files one
 * project after another, so a project's files start as the one before leaves workers free.
 */
// CPU-bound and stack-free: the typed client's type checks (tsc over generated types)
const STATIC = ['test/typed-client/*.test.ts'];
/** test workers yield the CPU to the shared stack that serves them (test/setup/low-priority.ts) */
const LOW_PRIORITY = 'test/setup/low-priority.ts';
const PROCESS = [
  'test/integration/*-process.test.ts',
  'test/integration/*-crash.test.ts',
  'test/integration/campaign-control-restart.test.ts',
  'test/integration/clock-ahead.test.ts',
  // timed against the stack's deadlines (a slice of seconds, answers of 1.5 s in a 2 s limit): not beside three other files
  'test/integration/audience-jobs.test.ts',
  // runs the deployed bundles beside their source, sixty imports of a megabyte or more: not beside the shared stack's timed answers
  'test/integration/bundles.test.ts',
  // the CDK synth of those bundles (with its IAM check): in the stack's group it held the process phase back
  // until the bundles were built, one file on one core for half a minute
  'test/cdk/**/*.test.ts',
];
/** unit tests of the configuration as the cloud reads it, which no other file of their worker may have read first */
const FRESH_CONFIGURATION = ['test/unit/app-credentials.test.ts', 'test/unit/webhook-addresses.test.ts'];
/** every function bundled once (one esbuild run into dist/functions), for the synth test, its IAM check and the bundle test; built while the stack's tests run */
const BUNDLES = 'test/setup/function-bundles.ts';
/** `npm start` and the admin CLI prebuilt, for the process group's child stacks and admin runs */
const LOCAL_BUNDLES = 'test/setup/local-bundles.ts';
const withStack = { globalSetup: ['test/setup/global-stack.ts'], setupFiles: ['test/setup/stack-env.ts', LOW_PRIORITY] };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // a wait on the stack (a webhook, a job's end) is generous: on a busy machine a worker's continuation can take seconds
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: 'forks',
    // the stack's tests mostly wait on the stack (another process's I/O): four files at a time keep two
    // cores busy, where vitest's default (cores − 1) would run them one by one
    maxWorkers: 4,
    // a worker keeps the modules it imported from one file to the next (each file still gets its own
    // setup files): importing the service afresh for every file cost more than a third of the run
    isolate: false,
    // the test files and the service run on Node's own import and type stripping (as `npm start` does), not
    // through Vite's module runner: no transform of every module in the main process, which all workers
    // waited on (vi.mock and import.meta.vitest, which need it, are not used)
    experimental: { viteModuleRunner: false },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ['**/node_modules/**', ...FRESH_CONFIGURATION] } },
      // each in a process of its own: Node's module cache cannot be emptied, and these read the configuration as deployed
      { extends: true, test: { name: 'unit-fresh', include: FRESH_CONFIGURATION, isolate: true } },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/unit/**', ...STATIC, ...PROCESS],
          ...withStack,
        },
      },
      // after the stack's files in the same group (projects' files queue by name): they take the CPU the
      // stack's last files leave idle, instead of lengthening the process phase
      { extends: true, test: { name: 'static', include: STATIC, setupFiles: [LOW_PRIORITY] } },
      {
        extends: true,
        // after the shared stack's tests, so neither slows the other's timed answers
        test: {
          name: 'process',
          include: PROCESS,
          ...withStack,
          globalSetup: [...withStack.globalSetup, BUNDLES, LOCAL_BUNDLES],
          // a child stack's start is CPU-bound: three files at a time
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
