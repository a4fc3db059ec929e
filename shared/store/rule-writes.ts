import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEvent } from './webhook-events.ts';
import { webhookEventPut } from './webhook-event-writes.ts';
import type { AuditToStore } from '../core/audit.ts';
import { clock } from '../core/clock.ts';
import type { StepStore } from '../core/exactly-once.ts';
import type { Platform } from '../core/errors.ts';
import { MAX_RULES_PER_USER, type Rule, type RuleActionOutcome } from '../schemas/rules.ts';
import { sendAuditedTogether } from './audit-event-writes.ts';
import { documentStore, failedCondition, failedTransactionConditions, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';
import { groupWrites } from './rule-group-writes.ts';
import { emptyGroup, findRuleGroup, type RuleGroup, type RuleRunState, runStateOf, stateOfRule } from './rule-groups.ts';
import { type ActionRecord, findActionRecord, findStoredRule, type RuleItem, type StoredRule } from './rules.ts';

/**
 * Writing rules and their runs (rules.ts reads them and draws the layout). A rule, its group's run
 * state and the group's item in the due index change together, in one transaction with the audit event
 * where there is one; the group is written only if it is still the version read, and a write that finds
 * it changed reads it again (a run ending, another rule of the user changing).
 */
const ACTION_KEEP_SECONDS = 30 * 24 * 60 * 60;
const GROUP_ATTEMPTS = 5;
const table = () => mainTableName();

const failedWrite = failedCondition;

/** The rule's item: its definition; its run state lives in its group. */
function storedRuleOf(tenantId: string, rule: Rule, version: number): StoredRule {
  const { nextRunAt: _next, lastRunAt: _last, consecutiveFailedRuns: _failed, ...definition } = rule;
  return { ...definition, pk: keys.rulesPk(tenantId, rule.userId), sk: keys.rule(rule.ruleId), tenantId, version };
}

/**
 * Runs `write` with the user's group on the rule's platform as it is now, again when the group changed
 * meanwhile (its write is at `groupIndex` of the transaction); the write's own answer otherwise.
 */
async function withGroup<T>(tenantId: string, userId: string, platform: Platform, groupIndex: number, write: (group: RuleGroup) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const group = (await findRuleGroup(tenantId, userId, platform)) ?? emptyGroup(tenantId, userId, platform);
    try {
      return await write(group);
    } catch (error) {
      if (failedWrite(error) !== groupIndex || attempt === GROUP_ATTEMPTS) throw error;
    }
  }
}

/** Stores a new rule; 'limit' when the user already has MAX_RULES_PER_USER. */
export function createRule(tenantId: string, rule: Rule, audit: AuditToStore | undefined): Promise<'created' | 'limit'> {
  return withGroup(tenantId, rule.userId, rule.platform, 2, async (group) => {
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
          new PutCommand({ TableName: table(), Item: storedRuleOf(tenantId, rule, 1), ConditionExpression: 'attribute_not_exists(sk)' }),
          ...groupWrites(group, { ...group.rules, [rule.ruleId]: stateOfRule(rule) }),
        ],
        audit,
      );
      return 'created' as const;
    } catch (error) {
      if (failedWrite(error) === 0) return 'limit' as const;
      throw error;
    }
  });
}

/**
 * Replaces a rule as it was read (`before`); false when it changed or went meanwhile. Its run state is
 * the group's as it is now: enabling sets the next run the rule asks for, disabling takes it away.
 */
export function replaceRule(tenantId: string, before: RuleItem, after: Rule, audit: AuditToStore | undefined): Promise<boolean> {
  return withGroup(tenantId, before.userId, before.platform, 1, async (group) => {
    const current = runStateOf(group, before.ruleId);
    const state = !after.enabled
      ? { ...current, nextRunAt: undefined }
      : !before.enabled
        ? stateOfRule(after)
        : { ...current, nextRunAt: current.nextRunAt ?? after.nextRunAt };
    if (state.nextRunAt === undefined) delete state.nextRunAt;
    try {
      await sendAuditedTogether(
        [
          new PutCommand({
            TableName: table(),
            Item: storedRuleOf(tenantId, after, before.version + 1),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': before.version },
          }),
          ...groupWrites(group, { ...group.rules, [before.ruleId]: state }),
        ],
        audit,
      );
      return true;
    } catch (error) {
      if (failedWrite(error) === 0) return false;
      throw error;
    }
  });
}

export function deleteRule(tenantId: string, before: RuleItem, audit: AuditToStore | undefined): Promise<boolean> {
  return withGroup(tenantId, before.userId, before.platform, 2, async (group) => {
    const { [before.ruleId]: _gone, ...rules } = group.rules;
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
          ...groupWrites(group, rules),
        ],
        audit,
      );
      return true;
    } catch (error) {
      if (failedWrite(error) === 0) return false;
      throw error;
    }
  });
}

/** How one rule's run ends on the rule: its next run, its failure streak, or its disabling (with its audit event). */
export interface RuleRunEnd {
  ruleId: string;
  /** the run time the run was for: the rule's state changes only if it is still that */
  scheduledAt: string;
  state: RuleRunState;
  disabledReason?: string;
}

/**
 * A group run's end, in one transaction: the ended rules' run states (each only if the rule is still
 * due at the time the run was for), the group's index item moved to its next run, its claim let go
 * unless `keepClaim` (a partial run waits for its claim to end), the run's log, and each disabled rule
 * with its `rule.disabled` event. The rules it disabled.
 */
export function endGroupRun(
  group: { tenantId: string; userId: string; platform: Platform },
  ends: RuleRunEnd[],
  log: PutCommand[],
  options: { keepClaim: boolean },
): Promise<string[]> {
  const { tenantId, userId, platform } = group;
  return withGroup(tenantId, userId, platform, 0, async (current) => {
    const rules = { ...current.rules };
    const disabling: RuleRunEnd[] = [];
    for (const end of ends) {
      if (rules[end.ruleId]?.nextRunAt !== end.scheduledAt) continue; // changed, disabled or deleted meanwhile: as it is now
      rules[end.ruleId] = end.state;
      if (end.disabledReason) disabling.push(end);
    }
    const disabled = (await Promise.all(disabling.map((end) => findStoredRule(tenantId, userId, end.ruleId)))).flatMap((stored, index) =>
      stored?.enabled ? [{ stored, reason: disabling[index]?.disabledReason as string }] : [],
    );
    const writes = groupWrites(current, rules, { release: !options.keepClaim });
    const groupWritesCount = writes.length;
    writes.push(...log);
    for (const { stored } of disabled) {
      writes.push(
        new UpdateCommand({
          TableName: table(),
          Key: { pk: stored.pk, sk: stored.sk },
          UpdateExpression: 'SET enabled = :off, disabledReason = :reason, version = :next',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: {
            ':off': false,
            ':reason': disabled.find((entry) => entry.stored === stored)?.reason,
            ':next': stored.version + 1,
            ':version': stored.version,
          },
        }),
      );
    }
    try {
      await sendAuditedTogether(
        writes,
        disabled.map(({ stored }) => ({
          tenantId,
          action: 'rule.disabled' as const,
          actor: { type: 'rule' as const, id: stored.ruleId },
          target: { type: 'rule' as const, id: stored.ruleId },
          userId,
          platform,
          changes: { enabled: { from: true, to: false } },
        })),
      );
    } catch (error) {
      const failed = failedWrite(error);
      // a disabled rule changed by its user meanwhile: read everything again (the group too, as it was not written)
      if (failed !== undefined && failed >= groupWritesCount + log.length) throw Object.assign(error as Error, { failedWrite: 0 });
      throw error;
    }
    return disabled.map(({ stored }) => stored.ruleId);
  });
}

/** What an action sets out to do, before it does it; false when this run's action on the campaign was begun before. */
export function beginAction(tenantId: string, ruleId: string, runId: string, campaignId: string, record: ActionRecord, nowMs: number): Promise<boolean> {
  return writeIfConditionHolds(
    new PutCommand({
      TableName: table(),
      Item: { ...keys.ruleAction(tenantId, ruleId, runId, campaignId), ...record, at: nowMs, expiresAt: Math.floor(nowMs / 1000) + ACTION_KEEP_SECONDS },
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

/**
 * A match told in mode notify, once per (rule, run, campaign): the action's record, already ended
 * `notified`, and the `optimization.matched` event in one transaction. False: a delivery of the same
 * run told it before (nothing written).
 */
export async function recordNotice(
  tenantId: string,
  ruleId: string,
  runId: string,
  campaignId: string,
  result: RuleActionOutcome,
  event: WebhookEvent | undefined,
) {
  const now = clock.now();
  const writes = [
    {
      Put: {
        TableName: table(),
        Item: {
          ...keys.ruleAction(tenantId, ruleId, runId, campaignId),
          outcome: result.outcome,
          result,
          at: now,
          expiresAt: Math.floor(now / 1000) + ACTION_KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(sk)',
      },
    },
    ...(event ? [{ Put: webhookEventPut(event).input }] : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes as never }));
    return true;
  } catch (error) {
    if (failedTransactionConditions(error)?.includes(0)) return false;
    throw error;
  }
}
