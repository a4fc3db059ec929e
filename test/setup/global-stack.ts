import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { LocalClock } from '../../local/clock.ts';
import { startLocalStack } from '../../local/stack.ts';
import { TEST_UPSTREAM_TIMEOUT_MS } from '../helpers/timing.ts';

/** One local stack (gateway, dynalite, s3rver, sandboxes) for the whole run, in a throw-away data folder. */
export const TEST_API_KEY = 'test-suite-api-key-0000000000000000';
// 1 s, not 0: the emulator's persisted queues fail a visibility change to 0 (a fauxqs bug; the SDK's retry then finds the message returned)
export const TEST_WEBHOOK_ENV = {
  WEBHOOK_RETRY_DELAYS: '1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
  SEARCHADS_FIRST_WAIT_SECONDS: '1',
  REPORT_RUN_FIRST_WAIT_SECONDS: '1',
};

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { url: string; apiKey: string; env: Record<string, string>; sandboxes: Record<string, string>; webhookReceiverUrl: string };
  }
}

type Provided = import('vitest').ProvidedContext['stack'];
interface Shared {
  ready: Promise<{ provided: Provided; stop: () => Promise<void> }>;
  users: number;
}
/**
 * The `stack` and `process` projects both ask for the stack; both run in this one main process, so
 * the first starts it and the second is given the same (held on globalThis: each project may load
 * this module on its own). It stops when the last of them is done.
 */
const shared = globalThis as typeof globalThis & { adApiTestStack?: Shared };

async function start(): Promise<{ provided: Provided; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-test-'));
  // errors only (about 17 lines a run): a worker's failure, a message handed back, says why in the run's output
  process.env.LOG_LEVEL = 'ERROR';
  process.env.UPSTREAM_TIMEOUT_MS = String(TEST_UPSTREAM_TIMEOUT_MS);
  // webhook retries come back at once, and a receiver that hangs is given up on after a second
  Object.assign(process.env, TEST_WEBHOOK_ENV);
  // the tests run rules themselves: the stack's own scheduler would act on their rules at a moment no test chose
  process.env.RULES_INTERVAL_SECONDS = '86400';
  // retry waits pass at once: the clock moves forward instead of the test sleeping
  const stack = await startLocalStack({ port: 0, dataDir, apiKey: TEST_API_KEY, clock: new LocalClock({ instantSleeps: true }) });
  return {
    provided: {
      url: stack.url,
      apiKey: stack.apiKey,
      webhookReceiverUrl: stack.webhookReceiverUrl,
      env: { ...stack.env, LOG_LEVEL: 'SILENT', UPSTREAM_TIMEOUT_MS: String(TEST_UPSTREAM_TIMEOUT_MS), ...TEST_WEBHOOK_ENV },
      sandboxes: Object.fromEntries(Object.entries(stack.sandboxes).map(([name, sandbox]) => [name, sandbox.url])),
    },
    stop: async () => {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  shared.adApiTestStack ??= { ready: start(), users: 0 };
  const current = shared.adApiTestStack;
  current.users++;
  const { provided, stop } = await current.ready;
  project.provide('stack', provided);
  return async () => {
    if (--current.users > 0) return;
    shared.adApiTestStack = undefined;
    await stop();
  };
}
