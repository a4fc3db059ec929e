import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import type { Rule, RuleRun } from '../schemas/rules.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * The optimizer's rules in the main table (docs/architecture.md, "The main table"):
 *   TENANT#<t>#USER#<u>#RULES / RULE#<ruleId>        a rule (its definition, its schedule, its run state)
 *   TENANT#<t>#USER#<u>#RULES / COUNT                how many rules the user has (at most 100)
 *   RULES#DUE#<shard> / <due ms>#<t>#<u>#<ruleId>    the index on next run time, one item per enabled rule
 *   TENANT#<t>#USER#<u>#RULE#<ruleId>#RUNS / RUN#<due ms>#<runId>       the execution log, 90 days
 *   TENANT#<t>#RULE_ACTIONS#<ruleId> / <runId>#<campaignId>            one action of a run, 30 days
 *   TENANT#<t>#RULES_QUOTA / <platform>#<UTC day>                       upstream calls spent by rules
 */
export const DUE_SHARDS = 4;
export const RULES_PAGE_SIZE = 50;
export const RUNS_PAGE_SIZE = 20;

export interface RuleItem extends Rule {
  pk: string;
  sk: string;
  tenantId: string;
  version: number;
  /** the rule's item in the due index, while it has one */
  dueSk?: string;
  /** the run the scheduler queued: not queued again before this (epoch ms) */
  leaseUntil?: number;
}

export interface DueRule {
  tenantId: string;
  userId: string;
  ruleId: string;
  platform: Platform;
  /** the rule's next run time the index item stands for (a lease moves the item, not this) */
  scheduledAt: string;
  /** the index item, as the scheduler found it */
  shard: number;
  sk: string;
}

export const shardOf = (ruleId: string) => Number.parseInt(ruleId.slice(-2), 16) % DUE_SHARDS;

export const publicRule = (item: RuleItem): Rule => {
  const { pk: _pk, sk: _sk, tenantId: _tenant, version: _version, dueSk: _due, leaseUntil: _lease, ...rule } = item;
  return rule;
};

export async function findRuleItem(tenantId: string, userId: string, ruleId: string): Promise<RuleItem | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: { pk: keys.rulesPk(tenantId, userId), sk: keys.rule(ruleId) }, ConsistentRead: true }),
  );
  return Item as RuleItem | undefined;
}

export async function listRules(tenantId: string, userId: string, pagination: string): Promise<{ rules: Rule[]; paging: { next?: string } }> {
  const after = pagination ? decodeCursor(pagination, /^RULE#rul_[0-9a-f]{24}$/) : undefined;
  const page = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: after ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :rule)',
      ExpressionAttributeValues: after
        ? { ':pk': keys.rulesPk(tenantId, userId), ':after': after }
        : { ':pk': keys.rulesPk(tenantId, userId), ':rule': keys.rulePrefix },
      Limit: RULES_PAGE_SIZE,
    }),
  );
  const items = (page.Items ?? []).filter((item) => String(item.sk).startsWith(keys.rulePrefix)) as RuleItem[];
  const last = items.at(-1);
  return { rules: items.map(publicRule), paging: page.LastEvaluatedKey && last ? { next: encodeCursor(last.sk) } : {} };
}

/** Every rule due by `now`, from the index: one query per shard, never a scan. */
export async function* dueRules(now: number): AsyncGenerator<DueRule> {
  for (let shard = 0; shard < DUE_SHARDS; shard++) {
    for await (const item of queryItems({
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': keys.ruleDuePk(shard), ':before': keys.ruleDueBefore(now) },
    })) {
      yield {
        tenantId: item.tenantId,
        userId: item.userId,
        ruleId: item.ruleId,
        platform: item.platform,
        scheduledAt: item.scheduledAt,
        shard,
        sk: item.sk,
      } as DueRule;
    }
  }
}

/** A rule's runs, newest first. */
export async function listRuleRuns(
  tenantId: string,
  userId: string,
  ruleId: string,
  pagination: string,
): Promise<{ runs: RuleRun[]; paging: { next?: string } }> {
  const before = pagination ? decodeCursor(pagination, keys.ruleRunShape) : undefined;
  const pk = keys.ruleRunsPk(tenantId, userId, ruleId);
  const page = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
      ExpressionAttributeValues: before ? { ':pk': pk, ':before': before } : { ':pk': pk },
      ScanIndexForward: false,
      Limit: RUNS_PAGE_SIZE,
    }),
  );
  const items = page.Items ?? [];
  const last = items.at(-1);
  return {
    runs: items.map(({ pk: _pk, sk: _sk, expiresAt: _ttl, ...run }) => run as RuleRun),
    paging: page.LastEvaluatedKey && last ? { next: encodeCursor(last.sk as string) } : {},
  };
}

export interface ActionRecord {
  /** what the action set out to do, decided once: a status, or a budget's units */
  target: { field: 'status' | 'dailyBudget'; from: string; to: string };
  outcome?: 'applied' | 'skipped' | 'failed';
  result?: Record<string, unknown>;
}

export async function findActionRecord(tenantId: string, ruleId: string, runId: string, campaignId: string): Promise<ActionRecord | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.ruleAction(tenantId, ruleId, runId, campaignId), ConsistentRead: true }),
  );
  return Item as ActionRecord | undefined;
}
