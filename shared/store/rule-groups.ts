import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import type { Rule, RuleRun } from '../schemas/rules.ts';
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
const RUN_KEEP_SECONDS = 90 * 24 * 60 * 60;
/** a part of a group's run log stays well under DynamoDB's 400 KB item limit */
const RUN_PART_BYTES = 300_000;
const table = () => mainTableName();

const groupKey = (tenantId: string, userId: string, platform: Platform) => ({ pk: keys.rulesPk(tenantId, userId), sk: keys.ruleGroup(platform) });
const shardOfGroup = (tenantId: string, userId: string, platform: Platform) =>
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

/** When the group is due: its earliest next run (undefined when no rule of it has one). */
function dueAtOf(rules: Record<string, RuleRunState>): number | undefined {
  const times = Object.values(rules).flatMap((state) => (state.nextRunAt ? [Date.parse(state.nextRunAt)] : []));
  return times.length > 0 ? Math.min(...times) : undefined;
}

type Write = PutCommand | UpdateCommand | DeleteCommand;

/**
 * The writes that store the group with these rules' states (others as they were), in one transaction
 * with whatever the caller adds: the group only if it is still the version read, and its index item
 * moved to the new earliest run. `release` lets the run's claim go.
 */
export function groupWrites(before: RuleGroup, rules: Record<string, RuleRunState>, options: { release?: boolean } = {}): Write[] {
  const { tenantId, userId, platform } = before;
  const dueAt = dueAtOf(rules);
  const dueSk = dueAt === undefined ? undefined : keys.ruleDue(dueAt, tenantId, userId, platform);
  const shard = shardOfGroup(tenantId, userId, platform);
  const { leaseUntil, ...kept } = before;
  const after: RuleGroup = {
    ...kept,
    ...groupKey(tenantId, userId, platform),
    version: before.version + 1,
    rules,
    ...(dueSk ? { dueSk } : {}),
    ...(leaseUntil !== undefined && !options.release ? { leaseUntil } : {}),
  } as RuleGroup;
  if (!dueSk) delete after.dueSk;
  const writes: Write[] = [
    new PutCommand({
      TableName: table(),
      Item: after,
      ConditionExpression: before.version === 0 ? 'attribute_not_exists(sk)' : 'version = :version',
      ...(before.version === 0 ? {} : { ExpressionAttributeValues: { ':version': before.version } }),
    }),
  ];
  if (before.dueSk !== dueSk) {
    if (before.dueSk) writes.push(new DeleteCommand({ TableName: table(), Key: { pk: keys.ruleDuePk(shard), sk: before.dueSk } }));
    if (dueSk) writes.push(new PutCommand({ TableName: table(), Item: { pk: keys.ruleDuePk(shard), sk: dueSk, tenantId, userId, platform } }));
  }
  return writes;
}

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

/**
 * The scheduler's claim on a due group: one write, so the next pass does not queue it again while its
 * run is on its way; a run that never ends lets it go at `leaseUntil`. The group as claimed, or
 * undefined when another pass holds it or the group moved on. `ignoreLeases`: the local stack's start,
 * when no run of the last process can still be on its way.
 */
export async function claimRuleGroup(due: DueGroup, now: number, leaseUntil: number, ignoreLeases = false): Promise<RuleGroup | undefined> {
  try {
    const { Attributes } = await documentStore().send(
      new UpdateCommand({
        TableName: table(),
        Key: groupKey(due.tenantId, due.userId, due.platform),
        UpdateExpression: 'SET leaseUntil = :lease',
        ConditionExpression: `dueSk = :due${ignoreLeases ? '' : ' AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)'}`,
        ExpressionAttributeValues: { ':lease': leaseUntil, ':due': due.sk, ...(ignoreLeases ? {} : { ':now': now }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as RuleGroup;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/**
 * The log of one run of a group, in parts: keyed by what the run was asked to do (its rules and their
 * due times), so a run handed back by the queue, or resumed after a partial pass, rewrites its own.
 */
export function runLogWrites(
  tenantId: string,
  userId: string,
  platform: Platform,
  asked: Array<{ ruleId: string; scheduledAt: string }>,
  runs: RuleRun[],
): PutCommand[] {
  const first = Math.min(...asked.map((rule) => Date.parse(rule.scheduledAt)));
  const digest = createHash('sha256').update(JSON.stringify(asked)).digest('hex').slice(0, 16);
  const finished = Math.max(...runs.map((run) => Date.parse(run.finishedAt)));
  const parts: RuleRun[][] = [[]];
  let size = 0;
  for (const run of runs) {
    const bytes = Buffer.byteLength(JSON.stringify(run));
    if (size + bytes > RUN_PART_BYTES && (parts.at(-1)?.length ?? 0) > 0) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)?.push(run);
    size += bytes;
  }
  return parts.map(
    (part, index) =>
      new PutCommand({
        TableName: table(),
        Item: {
          pk: keys.ruleRunsPk(tenantId, userId),
          sk: keys.ruleGroupRun(first, platform, digest, index),
          ruleIds: new Set(part.map((run) => run.ruleId)),
          runs: part,
          expiresAt: Math.floor(finished / 1000) + RUN_KEEP_SECONDS,
        },
      }),
  );
}
