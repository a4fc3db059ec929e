import { randomInt } from 'node:crypto';
import type { RuleRunMessage } from '../../functions/use-cases/rules/rule-runs.ts';
import { runRuleGroup } from '../../functions/use-cases/rules/rule-runs.ts';
import { platformAdapters } from '../../shared/platforms/registry.ts';
import type { Platform } from '../../shared/core/errors.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { findRuleItem } from '../../shared/store/rules.ts';
import { call } from './api.ts';
import { lambdaContext, seedCampaigns } from './scale.ts';
import { newSocialUser } from './social.ts';

/** Rules through the gateway, and their runs made in this process exactly as the queue's worker makes them. */
export const tenantOf = async (apiKey: string) => (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;

/** A social user on an ad account of its own holding `count` fresh ACTIVE campaigns. */
export async function socialAccountUser(apiKey: string, count = 3) {
  const account = String(randomInt(1_500_000_000_000_000, 1_599_999_999_999_999));
  const campaignIds = await seedCampaigns('social', account, count);
  const { userId, token } = await newSocialUser(apiKey, { adAccountId: account });
  return { userId, token, account, campaignIds };
}

/** A rule that every sandbox campaign trips (it had impressions in the last week). */
export const trippingRule = (userId: string, platform: Platform, campaignIds: string[], overrides: Record<string, unknown> = {}) => ({
  userId,
  platform,
  name: 'Pause what delivered',
  campaignIds,
  conditions: [{ metric: 'impressions', operator: '>', value: 0, window: 'LAST_7_DAYS' }],
  action: { type: 'PAUSE' },
  schedule: 'HOURLY',
  ...overrides,
});

export async function createRule(apiKey: string, body: Record<string, unknown>) {
  const response = await call('/optimize_me/create_rule', body, { apiKey });
  if (response.status !== 200 || !response.body.results.success) throw new Error(`create_rule: ${response.text}`);
  return response.body.results.rule as { ruleId: string; nextRunAt: string; platform: Platform };
}

/** The message the scheduler would queue for these rules, as they are stored now. */
export async function runMessage(apiKey: string, userId: string, ruleIds: string[]): Promise<RuleRunMessage> {
  const tenantId = await tenantOf(apiKey);
  const items = await Promise.all(ruleIds.map((ruleId) => findRuleItem(tenantId, userId, ruleId)));
  return {
    tenantId,
    userId,
    platform: items[0]?.platform as Platform,
    rules: items.map((item) => ({ ruleId: item?.ruleId as string, scheduledAt: item?.nextRunAt as string })),
  };
}

export const runGroup = (message: RuleRunMessage) => runRuleGroup(message, platformAdapters[message.platform], lambdaContext);

export async function runsOf(apiKey: string, userId: string, ruleId: string) {
  const response = await call('/optimize_me/list_rule_runs', { userId, ruleId }, { apiKey });
  return response.body.results.runs as Array<Record<string, any>>;
}
