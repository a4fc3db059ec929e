import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PID_FILE } from '../../local/data-dir.ts';
import { queueDefinitions, type QueueId } from '../../shared/core/queues.ts';
import { inject } from 'vitest';
import { eventually } from './eventually.ts';
import { localBundle } from './local-bundles.ts';

/** `npm start` and the admin CLI as separate processes, so a test sees all they print. */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Node's compile cache, shared by every child stack and admin run of the suite: the first process
 * compiles the project's modules (type stripping included), the next ones read V8's code from here.
 * It halves a child's import of the stack (measured on 2 cores: about 2.0 s without it, 1.0 s with it).
 */
const COMPILE_CACHE = join(projectRoot, 'node_modules', '.cache', 'node-compile-cache');

/** The environment of a fresh shell: without the variables this worker took from the shared test stack. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(inject('stack').env)) delete env[name];
  return { ...env, NODE_COMPILE_CACHE: COMPILE_CACHE, ...extra };
}

export interface ChildStack {
  url: string;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | string | null>;
  /** SIGKILL to the stack's process, as a crash would */
  kill: () => Promise<void>;
}

export async function startChildStack(dataDir: string, apiKey: string, extraEnv: Record<string, string> = {}): Promise<ChildStack> {
  // `npm start`, prebuilt into one file for the run (test/helpers/local-bundles.ts): one process, as `npm start` runs it
  const child: ChildProcess = spawn(process.execPath, [await localBundle('local/main.ts')], {
    cwd: projectRoot,
    env: cleanEnv({ PORT: '0', DATA_DIR: dataDir, LOCAL_API_KEY: apiKey, LOG_LEVEL: 'DEBUG', ...extraEnv }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // the exit code, or the signal that ended the process (a crash says which)
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`stack exited:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    stop: async (signal: NodeJS.Signals = 'SIGINT') => {
      child.kill(signal);
      return exited;
    },
    kill: async () => {
      process.kill(Number(readFileSync(join(dataDir, PID_FILE), 'utf8')), 'SIGKILL');
      await exited;
    },
  };
}

export async function runAdmin(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const admin = await localBundle('infra/admin.ts');
  return new Promise((resolve) => {
    // `npm run admin`, prebuilt into one file for the run (test/helpers/local-bundles.ts)
    const child = spawn(process.execPath, [admin, ...args], {
      cwd: projectRoot,
      env: cleanEnv({ DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The child stack's sandbox of a platform, as its start-up output names it. */
export const sandboxOf = (stack: ChildStack, platform: 'social' | 'professional'): string =>
  stack.output().match(new RegExp(`${platform}\\s+(http://\\S+)`))?.[1] as string;
export const socialSandboxOf = (stack: ChildStack): string => sandboxOf(stack, 'social');

/** A JSON call to the child stack with an API key, answered as parsed JSON. */
export async function postTo(stack: ChildStack, apiKey: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

/**
 * The clock of one data folder's stacks across their restarts, which only moves forward: each restart's
 * environment (LOCAL_CLOCK_OFFSET_DAYS) starts the stack as far ahead as the last, or further.
 * `pastVisibilityOf(queue)` adds the queue's visibility timeout and 30 s: the local queues keep the stack's
 * clock, so a message a killed run held comes back at once, after the queue's real timeout on the stack's
 * time, as it would in the cloud that much later (and the dead run's leases, shorter, have run out too).
 */
export function folderClock() {
  let aheadSeconds = 0;
  const env = () => ({ LOCAL_CLOCK_OFFSET_DAYS: String(aheadSeconds / 86_400) });
  return {
    /** a restart as far ahead as the last */
    env,
    /** a restart `seconds` further ahead */
    ahead(seconds: number) {
      aheadSeconds += seconds;
      return env();
    },
    pastVisibilityOf(queue: QueueId) {
      const { visibilityTimeoutSeconds } = queueDefinitions.find((definition) => definition.id === queue) as { visibilityTimeoutSeconds: number };
      aheadSeconds += visibilityTimeoutSeconds + 30;
      return env();
    },
  };
}

/**
 * Takes a message that keeps failing through every receive its queue allows, on the stack's clock: after
 * each failed delivery (the line the local consumer prints once the run has returned, local/queues.ts), the
 * stack's clock moves past the queue's visibility, so the next delivery comes at once, never beside the run
 * it retries; after the last, the queue hands the message to its dead-letter queue. `since` is where in the
 * stack's output to start counting (its length before the test made the message).
 */
export async function throughEveryDelivery(stack: ChildStack, queue: QueueId, since: number): Promise<void> {
  const { visibilityTimeoutSeconds, maxReceiveCount } = queueDefinitions.find((definition) => definition.id === queue) as {
    visibilityTimeoutSeconds: number;
    maxReceiveCount: number;
  };
  const failedLine = new RegExp(`^${queue}: delivery \\d+ of message \\S+ failed`, 'gm');
  for (let delivery = 1; delivery <= maxReceiveCount; delivery++) {
    await eventually(
      async () => ((stack.output().slice(since).match(failedLine)?.length ?? 0) >= delivery ? true : undefined),
      60_000,
      `delivery ${delivery} of a ${queue} message to fail`,
    );
    const moved = await fetch(`${sandboxOf(stack, 'social')}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: (visibilityTimeoutSeconds + 1) * 1000 }),
    });
    if (!moved.ok) throw new Error(`the stack's clock did not move: ${moved.status}`);
  }
}
