import { existsSync, readFileSync } from 'node:fs';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { declarationFolders, importFromFolder } from '../../functions/routes.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';
import { stack } from '../helpers/api.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { createRule } from '../../shared/store/rule-writes.ts';
import { findRuleItem } from '../../shared/store/rules.ts';

/**
 * Each operation invoked directly with the sam-style events of its folder (functions/<name>/events),
 * through the real middleware. `events/expect.json` says what its invalid event must be refused for
 * and which operation's valid event must run first; an operation without one is covered elsewhere.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;
interface Expectation {
  invalidPaths: string[];
  validAfter?: string[];
  /** a rule of the demo user, with this id, that the valid event names */
  existingRule?: string;
}

/** The demo user's rule with this id (as create_rule stores one), unless it is stored already. */
async function ensureRule(ruleId: string): Promise<void> {
  const tenantId = (await findTenantIdByKeyHash(hashApiKey(stack().apiKey))) as string;
  if (await findRuleItem(tenantId, 'demo-user', ruleId)) return;
  const now = new Date().toISOString();
  await createRule(
    tenantId,
    {
      ruleId,
      userId: 'demo-user',
      platform: 'social',
      name: 'Sample rule',
      campaignIds: ['120210987000000100'],
      conditions: [{ metric: 'spend', operator: '>', value: 50, window: 'LAST_3_DAYS' }],
      action: { type: 'PAUSE' },
      schedule: 'DAILY',
      cooldownHours: 24,
      enabled: false,
      createdAt: now,
      updatedAt: now,
      consecutiveFailedRuns: 0,
    },
    undefined,
  );
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

  it.each(cases)('$name: the valid event succeeds', async ({ name, validAfter = [], existingRule }) => {
    if (existingRule) await ensureRule(existingRule);
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
