import { existsSync, readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { declarationFolders, importFromFolder } from '../../functions/routes.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';

/**
 * Each operation invoked directly with the sam-style events of its folder (functions/<name>/events),
 * through the real middleware. `events/expect.json` says what its invalid event must be refused for
 * and which operation's valid event must run first; an operation without one is covered elsewhere.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;
interface Expectation {
  invalidPaths: string[];
  validAfter?: string[];
}

const functionsDir = new URL('../../functions/', import.meta.url);
const cases = declarationFolders()
  .filter((name) => existsSync(new URL(`${name}/events/expect.json`, functionsDir)))
  .map((name) => ({ name, ...(JSON.parse(readFileSync(new URL(`${name}/events/expect.json`, functionsDir), 'utf8')) as Expectation) }));
const handlerOf = async (name: string) => (await importFromFolder<{ handler: Handler }>(name, 'handler.ts')).handler;

describe('handlers with sam-style events', () => {
  it('covers the operations that have events', () => {
    expect(cases.map((entry) => entry.name)).toContain('create-user');
    expect(cases.length).toBeGreaterThanOrEqual(17);
  });

  it.each(cases)('$name: the valid event succeeds', async ({ name, validAfter = [] }) => {
    for (const before of validAfter) await (await handlerOf(before))(loadEvent(`${before}.valid`), lambdaContext());
    const response = await (await handlerOf(name))(loadEvent(`${name}.valid`), lambdaContext());
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ success: true, results: { success: true } });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it.each(cases)('$name: the invalid event is 400 with details', async ({ name, invalidPaths }) => {
    const response = await (await handlerOf(name))(loadEvent(`${name}.invalid`), lambdaContext());
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body);
    expect(body.results.code).toBe('INVALID_REQUEST');
    expect(body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual([...invalidPaths].sort());
  });
});
