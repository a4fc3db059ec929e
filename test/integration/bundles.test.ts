import { spawn } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { builtBundles } from '../helpers/function-bundles.ts';
import { routes } from '../../functions/routes.ts';
import { loadEvent } from '../helpers/events.ts';

/**
 * The deployed code is the esbuild bundle, not the source the other tests import: each function's
 * bundle, the very folder the stack deploys (built once for the run, test/setup/function-bundles.ts),
 * answers its invalid sam-style event exactly as its source does (tree-shaking must not drop zod's
 * English messages or any check; a connect route a browser follows: the same HTML page), and a valid
 * read answers 200. Both run in plain Node child processes (test/helpers/invoke-handlers.ts), as Lambda
 * runs a function: the bundles as built, the sources with Node's own type stripping.
 */
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const bundles = await builtBundles();
type Answer = { statusCode: number; contentType: string; body: string };

const withEvents = routes
  .filter((route) => !route.public)
  .map((route) => ({
    operation: route.operation,
    entry: route.entry,
    event: basename(dirname(route.entry)),
    refused: route.inbound && route.method === 'POST' ? 401 : 400,
  }));

/** Every case run in one child process; its answers by case id. */
function invokeAll(cases: Array<{ id: string; module: string; event: unknown }>): Promise<Record<string, Answer>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot, 'test/helpers/invoke-handlers.ts')], {
      cwd: projectRoot,
      env: { ...process.env, ...inject('stack').env, LOG_LEVEL: 'SILENT', AWS_REGION: 'us-east-1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      const line = stdout.split('\n').find((text) => text.startsWith('ANSWERS '));
      if (code !== 0 || !line) reject(new Error(`the handlers' process ended ${code}:\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(line.slice('ANSWERS '.length)) as Record<string, Answer>);
    });
    child.stdin.end(JSON.stringify(cases));
  });
}

let fromBundles: Record<string, Answer> = {};
let fromSources: Record<string, Answer> = {};
beforeAll(async () => {
  const cases = withEvents.map(({ operation, entry, event }) => ({ id: operation, entry, event: loadEvent(`${event}.invalid`) }));
  const valid = { id: 'get_profile.valid', entry: 'functions/get-profile/handler.ts', event: loadEvent('get-profile.valid') };
  [fromBundles, fromSources] = await Promise.all([
    invokeAll([...cases, valid].map(({ id, event }) => ({ id, event, module: join(bundles.folderOf(id.replace('.valid', '')), 'index.mjs') }))),
    invokeAll(cases.map(({ id, entry, event }) => ({ id, event, module: join(projectRoot, entry) }))),
  ]);
}, 120_000);

describe('function bundles behave as their source', () => {
  it.each(withEvents)('$operation: the invalid event gets the same 400', ({ operation, refused }) => {
    const [bundled, source] = [fromBundles[operation] as Answer, fromSources[operation] as Answer];
    // a platform's webhook without its signature is 401; any other refused event 400
    expect(bundled.statusCode).toBe(refused);
    expect(bundled.statusCode).toBe(source.statusCode);
    // the connect routes a browser follows answer HTML pages, a platform's webhooks text, the operations the JSON envelope
    if (!source.contentType.includes('json')) expect(bundled.body).toBe(source.body);
    else expect(JSON.parse(bundled.body)).toEqual(JSON.parse(source.body));
  });

  it('get_profile: the valid event reads the user through the bundled store client', () => {
    const response = fromBundles['get_profile.valid'] as Answer;
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ success: true, results: { success: true, user: { userId: 'demo-user' } } });
  });
});
