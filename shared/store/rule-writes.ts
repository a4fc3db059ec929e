import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditToStore } from '../core/audit.ts';
import { clock } from '../core/clock.ts';
import type { StepStore } from '../core/exactly-once.ts';
import type { Platform } from '../core/errors.ts';
import { MAX_RULES_PER_USER, type Rule, type RuleActionOutcome, type RuleRun } from '../schemas/rules.ts';
import { sendAuditedTogether } from './audit-event-writes.ts';
import { failedCondition, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';
import { type ActionRecord, type DueRule, findActionRecord, publicRule, type RuleItem, shardOf } from './rules.ts';

/**
 * Writing rules and their runs (rules.ts reads them and draws the layout). A rule and its item in the
 * due index change together, in one transaction with the audit event where there is one.
 */
const RUN_KEEP_SECONDS = 90 * 24 * 60 * 60;
const ACTION_KEEP_SECONDS = 30 * 24 * 60 * 60;
const table = () => mainTableName();

const failedWrite = failedCondition;

const dueItem = (tenantId: string, rule: Rule, dueAtMs: number) => ({
  Item: {
    pk: keys.ruleDuePk(shardOf(rule.ruleId)),
    sk: keys.ruleDue(dueAtMs, tenantId, rule.userId, rule.ruleId),
    tenantId,
    userId: rule.userId,
    ruleId: rule.ruleId,
    platform: rule.platform,
    scheduledAt: rule.nextRunAt,
  },
});

/** The rule's item with its index entry (when it is enabled and has a next run). */
function itemsOf(tenantId: string, rule: Rule, version: number): { rule: RuleItem; due?: ReturnType<typeof dueItem> } {
  const due = rule.enabled && rule.nextRunAt ? dueItem(tenantId, rule, Date.parse(rule.nextRunAt)) : undefined;
  return {
    rule: { ...rule, pk: keys.rulesPk(tenantId, rule.userId), sk: keys.rule(rule.ruleId), tenantId, version, ...(due ? { dueSk: due.Item.sk } : {}) },
    due,
  };
}

const removeDue = (item: RuleItem) =>
  item.dueSk ? [new DeleteCommand({ TableName: table(), Key: { pk: keys.ruleDuePk(shardOf(item.ruleId)), sk: item.dueSk } })] : [];

/** Stores a new rule; 'limit' when the user already has MAX_RULES_PER_USER. */
export async function createRule(tenantId: string, rule: Rule, audit: AuditToStore | undefined): Promise<'created' | 'limit'> {
  const { rule: item, due } = itemsOf(tenantId, rule, 1);
  try {
    await sendAuditedTogether(
      [
        new UpdateCommand({
          TableName: table(),
          Key: keys.ruleCount(tenantId, rule.userId),
          UpdateExpression: 'ADD #count :one',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': MAX_RULES_PER_USER },
        }),
        new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }),
        ...(due ? [new PutCommand({ TableName: table(), ...due })] : []),
      ],
      audit,
    );
    return 'created';
  } catch (error) {
    if (failedWrite(error) === 0) return 'limit';
    throw error;
  }
}

/** Replaces a rule as it was read (`before`); false when it changed or went meanwhile. */
export async function replaceRule(tenantId: string, before: RuleItem, after: Rule, audit: AuditToStore | undefined): Promise<boolean> {
  const { rule: item, due } = itemsOf(tenantId, after, before.version + 1);
  try {
    await sendAuditedTogether(
      [
        new PutCommand({
          TableName: table(),
          Item: item,
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        }),
        ...removeDue(before),
        ...(due ? [new PutCommand({ TableName: table(), ...due })] : []),
      ],
      audit,
    );
    return true;
  } catch (error) {
    if (failedWrite(error) === 0) return false;
    throw error;
  }
}

export async function deleteRule(tenantId: string, before: RuleItem, audit: AuditToStore | undefined): Promise<boolean> {
  try {
    await sendAuditedTogether(
      [
        new DeleteCommand({
          TableName: table(),
          Key: { pk: before.pk, sk: before.sk },
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        }),
        new UpdateCommand({
          TableName: table(),
          Key: keys.ruleCount(tenantId, before.userId),
          UpdateExpression: 'ADD #count :minusOne',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':minusOne': -1 },
        }),
        ...removeDue(before),
      ],
      audit,
    );
    return true;
  } catch (error) {
    if (failedWrite(error) === 0) return false;
    throw error;
  }
}

/**
 * The scheduler's claim on a due rule: its index item moves to `leaseUntil`, so the next pass does not
 * queue it again while its run is on its way; a run that never ends makes it due again then. False
 * when another pass claimed it first or the rule changed.
 */
export async function leaseRuleRun(due: DueRule, leaseUntil: number): Promise<boolean> {
  const moved = keys.ruleDue(leaseUntil, due.tenantId, due.userId, due.ruleId);
  try {
    await sendAuditedTogether(
      [
        new UpdateCommand({
          TableName: table(),
          Key: { pk: keys.rulesPk(due.tenantId, due.userId), sk: keys.rule(due.ruleId) },
          UpdateExpression: 'SET leaseUntil = :lease, dueSk = :moved',
          ConditionExpression: 'dueSk = :due',
          ExpressionAttributeValues: { ':lease': leaseUntil, ':moved': moved, ':due': due.sk },
        }),
        new DeleteCommand({ TableName: table(), Key: { pk: keys.ruleDuePk(due.shard), sk: due.sk } }),
        new PutCommand({
          TableName: table(),
          Item: {
            pk: keys.ruleDuePk(due.shard),
            sk: moved,
            tenantId: due.tenantId,
            userId: due.userId,
            ruleId: due.ruleId,
            platform: due.platform,
            scheduledAt: due.scheduledAt,
          },
        }),
      ],
      undefined,
    );
    return true;
  } catch (error) {
    if (failedWrite(error) !== undefined) return false;
    throw error;
  }
}

/**
 * A run's end on the rule: its next run (one schedule period on), its failure streak, or its disabling
 * (with the audit event). Only if the rule is as the run read it; false when someone changed it meanwhile
 * (their change stands; the rule runs as they left it).
 */
export async function finishRuleRun(
  tenantId: string,
  before: RuleItem,
  outcome: { lastRunAt: string; nextRunAt?: string; consecutiveFailedRuns: number; disabledReason?: string },
  audit: AuditToStore | undefined,
): Promise<boolean> {
  const after: Rule = {
    ...publicRule(before),
    lastRunAt: outcome.lastRunAt,
    consecutiveFailedRuns: outcome.consecutiveFailedRuns,
    ...(outcome.disabledReason ? { enabled: false, disabledReason: outcome.disabledReason } : {}),
  };
  if (outcome.nextRunAt && !outcome.disabledReason) after.nextRunAt = outcome.nextRunAt;
  else if (outcome.disabledReason) delete after.nextRunAt;
  return replaceRule(tenantId, before, after, audit);
}

/**
 * A run's log entry, one per run: keyed by the time the rule was due (the run's id says it), so a run
 * handed back by the queue, or resumed after a partial pass, leaves one entry, its last word.
 */
export async function putRuleRun(tenantId: string, userId: string, run: RuleRun): Promise<void> {
  const due = Number(run.runId.split('_')[1]);
  await writeIfConditionHolds(
    new PutCommand({
      TableName: table(),
      Item: {
        pk: keys.ruleRunsPk(tenantId, userId, run.ruleId),
        sk: keys.ruleRun(due, run.runId),
        ...run,
        expiresAt: Math.floor(Date.parse(run.finishedAt) / 1000) + RUN_KEEP_SECONDS,
      },
    }),
  );
}

/** What an action sets out to do, before it does it; false when this run's action on the campaign was begun before. */
export function beginAction(tenantId: string, ruleId: string, runId: string, campaignId: string, record: ActionRecord, nowMs: number): Promise<boolean> {
  return writeIfConditionHolds(
    new PutCommand({
      TableName: table(),
      Item: { ...keys.ruleAction(tenantId, ruleId, runId, campaignId), ...record, expiresAt: Math.floor(nowMs / 1000) + ACTION_KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

/** How an action ended; false when another delivery of the same run recorded its end first (its word stands). */
export function endAction(
  tenantId: string,
  ruleId: string,
  runId: string,
  campaignId: string,
  outcome: Required<Pick<ActionRecord, 'outcome' | 'result'>>,
): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: table(),
      Key: keys.ruleAction(tenantId, ruleId, runId, campaignId),
      UpdateExpression: 'SET outcome = :outcome, #result = :result',
      ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(outcome)',
      ExpressionAttributeNames: { '#result': 'result' },
      ExpressionAttributeValues: { ':outcome': outcome.outcome, ':result': outcome.result },
    }),
  );
}

/** Spends `calls` of the tenant's daily share of a platform's quota; false (nothing spent) when that would pass `limit`. */
export async function spendRulesQuota(tenantId: string, platform: Platform, day: string, calls: number, limit: number): Promise<boolean> {
  if (calls > limit) return false;
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: table(),
      Key: keys.rulesQuota(tenantId, platform, day),
      UpdateExpression: 'ADD used :calls SET expiresAt = if_not_exists(expiresAt, :expires)',
      ConditionExpression: 'attribute_not_exists(used) OR used <= :room',
      ExpressionAttributeValues: { ':calls': calls, ':room': limit - calls, ':expires': Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 3 * 86_400 },
    }),
  );
}

/** Which action of which run: one exactly-once step per (rule, run, campaign). */
export interface RuleActionKey {
  tenantId: string;
  ruleId: string;
  runId: string;
  campaignId: string;
}

/**
 * The rule actions' exactly-once steps (core/exactly-once.ts) in the main table: the action item is
 * the step, its `target` the intent (what the action set out to do), its `outcome` and `result` the
 * completion. Records written before this port had the same fields.
 */
export const ruleActionSteps: StepStore<RuleActionKey, ActionRecord['target'], RuleActionOutcome> = {
  async find({ tenantId, ruleId, runId, campaignId }) {
    const record = await findActionRecord(tenantId, ruleId, runId, campaignId);
    if (!record) return undefined;
    return record.outcome
      ? { status: 'completed', intent: record.target, result: record.result as unknown as RuleActionOutcome }
      : { status: 'in_progress', intent: record.target };
  },
  begin: ({ tenantId, ruleId, runId, campaignId }, intent) => beginAction(tenantId, ruleId, runId, campaignId, { target: intent }, clock.now()),
  complete: ({ tenantId, ruleId, runId, campaignId }, result) =>
    endAction(tenantId, ruleId, runId, campaignId, { outcome: result.outcome, result: result as unknown as Record<string, unknown> }),
};
