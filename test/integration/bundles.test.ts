import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { readBundles } from '../../infra/bundling.ts';
import { BUNDLE_DIRECTORY } from '../../infra/bundle.ts';
import { routes } from '../../functions/routes.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';

/**
 * The deployed code is the esbuild bundle, not the source the other tests import: each function's
 * bundle, the very folder the stack deploys (built once for the run, test/setup/function-bundles.ts), answers its invalid sam-style event exactly as the source does
 * (a connect route a browser follows: the same HTML page)
 * (tree-shaking must not drop zod's English messages or any check), and a valid read answers 200.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;

const bundles = readBundles(BUNDLE_DIRECTORY);

async function loadBoth(operation: string, entry: string): Promise<{ bundled: Handler; source: Handler }> {
  const bundled = ((await import(pathToFileURL(join(bundles.folderOf(operation), 'index.mjs')).href)) as { handler: Handler }).handler;
  const source = ((await import(pathToFileURL(join(process.cwd(), entry)).href)) as { handler: Handler }).handler;
  return { bundled, source };
}

const withEvents = routes
  .filter((route) => !route.public)
  .map((route) => ({
    operation: route.operation,
    entry: route.entry,
    event: basename(dirname(route.entry)),
    refused: route.inbound && route.method === 'POST' ? 401 : 400,
  }));

describe('function bundles behave as their source', () => {
  it.each(withEvents)(
    '$operation: the invalid event gets the same 400',
    async ({ operation, entry, event, refused }) => {
      const { bundled, source } = await loadBoth(operation, entry);
      const fromBundle = await bundled(loadEvent(`${event}.invalid`), lambdaContext());
      const fromSource = await source(loadEvent(`${event}.invalid`), lambdaContext());
      // a platform's webhook without its signature is 401; any other refused event 400
      expect(fromBundle.statusCode).toBe(refused);
      // the connect routes a browser follows answer HTML pages, a platform's webhooks text, the operations the JSON envelope
      if (!fromSource.headers['content-type']?.includes('json')) expect(fromBundle.body).toBe(fromSource.body);
      else expect(JSON.parse(fromBundle.body)).toEqual(JSON.parse(fromSource.body));
    },
    60_000,
  );

  it('get_profile: the valid event reads the user through the bundled store client', async () => {
    const { bundled } = await loadBoth('get_profile', 'functions/get-profile/handler.ts');
    const response = await bundled(loadEvent('get-profile.valid'), lambdaContext());
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ success: true, results: { success: true, user: { userId: 'demo-user' } } });
  }, 60_000);
});
