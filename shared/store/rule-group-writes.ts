import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import type { RuleRun } from '../schemas/rules.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';
import { type DueGroup, type RuleGroup, type RuleRunState, groupKey, shardOfGroup } from './rule-groups.ts';

/** Writing the groups of rules, their due index and their run logs (rule-groups.ts reads them and draws the layout). */
const RUN_KEEP_SECONDS = 90 * 24 * 60 * 60;
/** a part of a group's run log stays well under DynamoDB's 400 KB item limit */
const RUN_PART_BYTES = 300_000;
const table = () => mainTableName();

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
