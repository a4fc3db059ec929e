import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import type { Rule } from '../schemas/rules.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { keys } from './keys.ts';

/**
 * A (user, platform) group of rules is what the optimizer schedules, runs and logs as one
 * (docs/operations.md, "Rules"): its rules are read, judged and logged together, so their run state is
 * one item and their place in the due index another.
 *
 *   TENANT#<t>#USER#<u>#RULES / GROUP#<platform>     the group: each rule's next run, last run and failure streak; the run's claim
 *   RULES#DUE#<shard> / <due ms>#<t>#<u>#<platform>  the index on the group's earliest next run, one item per group with a due rule
 *   TENANT#<t>#USER#<u>#RULE_RUNS / RUN#<ms>#<platform>#<digest>#<part>   one run of a group, every rule's run in it (in parts of at most ~300 KB)
 *
 * A run of the group costs a constant number of writes (its claim, then its end: the group, the index
 * item moved, the log), whatever the number of rules; only a rule that acts or is disabled writes more.
 */
export interface RuleRunState {
  /** absent while the rule is disabled */
  nextRunAt?: string;
  lastRunAt?: string;
  consecutiveFailedRuns: number;
}

export interface RuleGroup {
  tenantId: string;
  userId: string;
  platform: Platform;
  version: number;
  rules: Record<string, RuleRunState>;
  /** the group's item in the due index, while a rule of it has a next run */
  dueSk?: string;
  /** the run the scheduler queued: not queued again before this (epoch ms) */
  leaseUntil?: number;
}

export const DUE_SHARDS = 4;
const table = () => mainTableName();

export const groupKey = (tenantId: string, userId: string, platform: Platform) => ({ pk: keys.rulesPk(tenantId, userId), sk: keys.ruleGroup(platform) });
export const shardOfGroup = (tenantId: string, userId: string, platform: Platform) =>
  (createHash('sha256').update(`${tenantId}\u0000${userId}\u0000${platform}`).digest()[0] ?? 0) % DUE_SHARDS;

export const emptyGroup = (tenantId: string, userId: string, platform: Platform): RuleGroup => ({ tenantId, userId, platform, version: 0, rules: {} });

export async function findRuleGroup(tenantId: string, userId: string, platform: Platform): Promise<RuleGroup | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: table(), Key: groupKey(tenantId, userId, platform), ConsistentRead: true }));
  return Item as RuleGroup | undefined;
}

/** Every group of a user (at most one per platform), by platform. */
export async function userRuleGroups(tenantId: string, userId: string): Promise<Map<Platform, RuleGroup>> {
  const page = await documentStore().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :group)',
      ExpressionAttributeValues: { ':pk': keys.rulesPk(tenantId, userId), ':group': keys.ruleGroupPrefix },
      ConsistentRead: true,
    }),
  );
  return new Map((page.Items ?? []).map((item) => [item.platform as Platform, item as RuleGroup]));
}

/** A rule's run state as the rule shows it. */
export const runStateOf = (group: RuleGroup | undefined, ruleId: string): RuleRunState => group?.rules[ruleId] ?? { consecutiveFailedRuns: 0 };
export const stateOfRule = (rule: Pick<Rule, 'nextRunAt' | 'lastRunAt' | 'consecutiveFailedRuns' | 'enabled'>): RuleRunState => ({
  ...(rule.enabled && rule.nextRunAt ? { nextRunAt: rule.nextRunAt } : {}),
  ...(rule.lastRunAt ? { lastRunAt: rule.lastRunAt } : {}),
  consecutiveFailedRuns: rule.consecutiveFailedRuns,
});

export interface DueGroup {
  tenantId: string;
  userId: string;
  platform: Platform;
  sk: string;
}

/** Every group due by `now`, from the index: one query per shard, never a scan. */
export async function* dueGroups(now: number): AsyncGenerator<DueGroup> {
  for (let shard = 0; shard < DUE_SHARDS; shard++) {
    for await (const item of queryItems({
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': keys.ruleDuePk(shard), ':before': keys.ruleDueBefore(now) },
    })) {
      yield { tenantId: item.tenantId, userId: item.userId, platform: item.platform, sk: item.sk } as DueGroup;
    }
  }
}
