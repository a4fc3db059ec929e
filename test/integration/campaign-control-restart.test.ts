import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildStack, type ChildStack } from '../helpers/child-stack.ts';

/**
 * The sandboxes keep campaign changes across a restart of `npm start` (their state is in the data
 * folder): a campaign paused, removed or re-budgeted before is found so after, on all three platforms.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-control-'));
const apiKey = 'campaign-control-restart-key-0123456789';
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack?.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { results: Record<string, unknown> }).results;
}

describe('campaign changes survive a restart of the local stack', () => {
  it('social, search ads and professional changes are read back as they were left', async () => {
    stack = await startChildStack(dataDir, apiKey, { LOG_LEVEL: 'SILENT' });
    const userId = 'demo-user';
    expect(await post('/social/update_campaign_status', { userId, campaignId: '120210987000000100', status: 'PAUSED' })).toMatchObject({ changed: true });
    expect(await post('/social/edit_campaign', { userId, campaignId: '120210987000000101', editLevel: 'BUDGET', amount: '31.25' })).toMatchObject({
      changed: true,
    });
    expect(await post('/searchads/update_campaign_status', { userId, campaignId: '21234567890', status: 'DELETE' })).toMatchObject({ changed: true });
    expect(await post('/professional/edit_campaign', { userId, campaignId: '600000101', editLevel: 'BUDGET', amount: 64 })).toMatchObject({ changed: true });
    expect(await stack.stop()).toBe(0);

    stack = await startChildStack(dataDir, apiKey, { LOG_LEVEL: 'SILENT' });
    expect(await post('/social/update_campaign_status', { userId, campaignId: '120210987000000100', status: 'PAUSED' })).toMatchObject({ changed: false });
    expect(await post('/social/edit_campaign', { userId, campaignId: '120210987000000101', editLevel: 'BUDGET', amount: '31.25' })).toMatchObject({
      changed: false,
      previousDailyBudget: { amount: '31.25', currency: 'USD' },
    });
    expect(await post('/searchads/update_campaign_status', { userId, campaignId: '21234567890', status: 'PAUSED' })).toMatchObject({
      success: false,
      code: 'CAMPAIGN_REMOVED',
    });
    expect(await post('/professional/edit_campaign', { userId, campaignId: '600000101', editLevel: 'BUDGET', amount: 64 })).toMatchObject({
      changed: false,
      previousDailyBudget: { amount: '64.00', currency: 'USD' },
    });
    const history = await post('/optimize_me/get_campaign_optimization_history', { userId, campaignId: '120210987000000100' });
    expect((history.campaign as { history: unknown[] }).history).toHaveLength(1);
  }, 90_000);
});
