import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import type { Rule, RuleActionOutcome, RuleRun } from '../schemas/rules.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { findRuleGroup, type RuleGroup, runStateOf, userRuleGroups } from './rule-groups.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * The optimizer's rules in the main table (docs/architecture.md, "The main table"):
 *   TENANT#<t>#USER#<u>#RULES / RULE#<ruleId>        a rule's definition
 *   TENANT#<t>#USER#<u>#RULES / COUNT                how many rules the user has (at most 100)
 *   TENANT#<t>#USER#<u>#RULES / GROUP#<platform>     the run state of the user's rules on a platform (rule-groups.ts)
 *   RULES#DUE#<shard> / <due ms>#<t>#<u>#<platform>  the index on each group's earliest next run
 *   TENANT#<t>#USER#<u>#RULE_RUNS / RUN#<due ms>#…   the execution log, one entry per group run, 90 days
 *   TENANT#<t>#RULE_ACTIONS#<ruleId> / <runId>#<campaignId>            one action of a run, 30 days
 *   TENANT#<t>#RULES_QUOTA / <platform>#<UTC day>                       upstream calls spent by rules
 * A rule as it is read is its definition with its run state from its group.
 */
export const RULES_PAGE_SIZE = 50;
export const RUNS_PAGE_SIZE = 20;
/** the group runs one page of a rule's runs reads at most, looking for that rule's */
const RUN_LOG_QUERIES = 10;

export interface RuleItem extends Rule {
  pk: string;
  sk: string;
  tenantId: string;
  version: number;
}

/** The rule's stored item, without its run state (which its group holds). */
export type StoredRule = Omit<RuleItem, 'nextRunAt' | 'lastRunAt' | 'consecutiveFailedRuns'>;

export const publicRule = (item: RuleItem): Rule => {
  const { pk: _pk, sk: _sk, tenantId: _tenant, version: _version, ...rule } = item as RuleItem & { dueSk?: unknown; leaseUntil?: unknown };
  delete (rule as { dueSk?: unknown }).dueSk;
  delete (rule as { leaseUntil?: unknown }).leaseUntil;
  return rule;
};

const withState = (stored: StoredRule, group: RuleGroup | undefined): RuleItem => {
  const state = runStateOf(group, stored.ruleId);
  return {
    ...stored,
    ...(state.nextRunAt && stored.enabled ? { nextRunAt: state.nextRunAt } : {}),
    ...(state.lastRunAt ? { lastRunAt: state.lastRunAt } : {}),
    consecutiveFailedRuns: state.consecutiveFailedRuns,
  } as RuleItem;
};

export async function findStoredRule(tenantId: string, userId: string, ruleId: string): Promise<StoredRule | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: { pk: keys.rulesPk(tenantId, userId), sk: keys.rule(ruleId) }, ConsistentRead: true }),
  );
  return Item as StoredRule | undefined;
}

export async function findRuleItem(tenantId: string, userId: string, ruleId: string): Promise<RuleItem | undefined> {
  const stored = await findStoredRule(tenantId, userId, ruleId);
  return stored && withState(stored, await findRuleGroup(tenantId, userId, stored.platform));
}

/** Rules of one group, each with its run state (the group read once); a rule not found is left out. */
export async function findGroupRuleItems(tenantId: string, userId: string, platform: RuleGroup['platform'], ruleIds: string[]): Promise<RuleItem[]> {
  const [group, ...stored] = await Promise.all([
    findRuleGroup(tenantId, userId, platform),
    ...ruleIds.map((ruleId) => findStoredRule(tenantId, userId, ruleId)),
  ]);
  return stored.flatMap((rule) => (rule ? [withState(rule, group)] : []));
}

export async function listRules(tenantId: string, userId: string, pagination: string): Promise<{ rules: Rule[]; paging: { next?: string } }> {
  const after = pagination ? decodeCursor(pagination, /^RULE#rul_[0-9a-f]{24}$/) : undefined;
  const [page, groups] = await Promise.all([
    documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: after ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :rule)',
        ExpressionAttributeValues: after
          ? { ':pk': keys.rulesPk(tenantId, userId), ':after': after }
          : { ':pk': keys.rulesPk(tenantId, userId), ':rule': keys.rulePrefix },
        Limit: RULES_PAGE_SIZE,
      }),
    ),
    userRuleGroups(tenantId, userId),
  ]);
  const items = (page.Items ?? []) as StoredRule[];
  const last = items.at(-1);
  return {
    rules: items.map((item) => publicRule(withState(item, groups.get(item.platform)))),
    paging: page.LastEvaluatedKey && last ? { next: encodeCursor(last.sk) } : {},
  };
}

/** A rule's runs, newest first, from its group's run log (a deleted rule's stay listed). */
export async function listRuleRuns(
  tenantId: string,
  userId: string,
  ruleId: string,
  pagination: string,
): Promise<{ runs: RuleRun[]; paging: { next?: string } }> {
  let before = pagination ? decodeCursor(pagination, keys.ruleRunShape) : undefined;
  const pk = keys.ruleRunsPk(tenantId, userId);
  const runs: RuleRun[] = [];
  let lastSk: string | undefined;
  let more = true;
  for (let query = 0; query < RUN_LOG_QUERIES && more && runs.length < RUNS_PAGE_SIZE; query++) {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
        FilterExpression: 'contains(ruleIds, :rule)',
        ExpressionAttributeValues: { ':pk': pk, ':rule': ruleId, ...(before ? { ':before': before } : {}) },
        ScanIndexForward: false,
        Limit: RUNS_PAGE_SIZE,
      }),
    );
    for (const item of page.Items ?? []) {
      if (runs.length === RUNS_PAGE_SIZE) break;
      const run = (item.runs as RuleRun[]).find((entry) => entry.ruleId === ruleId);
      if (run) runs.push(run);
      lastSk = item.sk as string;
    }
    more = page.LastEvaluatedKey !== undefined;
    before = (page.LastEvaluatedKey?.sk as string | undefined) ?? before;
    if (runs.length === RUNS_PAGE_SIZE) break;
    lastSk = before;
  }
  return { runs, paging: more && lastSk ? { next: encodeCursor(lastSk) } : {} };
}

export interface ActionRecord {
  /** what the action set out to do, decided once: a status, or a budget's units */
  target: { field: 'status' | 'dailyBudget'; from: string; to: string };
  outcome?: RuleActionOutcome['outcome'];
  result?: Record<string, unknown>;
}

export async function findActionRecord(tenantId: string, ruleId: string, runId: string, campaignId: string): Promise<ActionRecord | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.ruleAction(tenantId, ruleId, runId, campaignId), ConsistentRead: true }),
  );
  return Item as ActionRecord | undefined;
}

/**
 * A rule's run in the user's run log, found by its id (its rule and the time it was due): the group run
 * that holds it began at or before that time, within the week a run may be undone.
 */
export async function findRuleRun(
  tenantId: string,
  userId: string,
  runId: string,
  ruleId: string,
  dueMs: number,
): Promise<{ run: RuleRun; platform: Platform } | undefined> {
  for await (const item of queryItems({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    FilterExpression: 'contains(ruleIds, :rule)',
    ExpressionAttributeValues: {
      ':pk': keys.ruleRunsPk(tenantId, userId),
      ':from': `RUN#${String(Math.max(0, dueMs - 8 * 86_400_000)).padStart(13, '0')}`,
      ':to': `RUN#${String(dueMs).padStart(13, '0')}#~`,
      ':rule': ruleId,
    },
    ScanIndexForward: false,
  })) {
    const run = (item.runs as RuleRun[]).find((entry) => entry.runId === runId);
    if (run) return { run, platform: String(item.sk).split('#')[2] as Platform };
  }
  return undefined;
}
