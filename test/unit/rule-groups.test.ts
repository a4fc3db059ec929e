import { describe, expect, it } from 'vitest';
import type { RuleRun } from '../../shared/schemas/rules.ts';
import { groupWrites, runLogWrites } from '../../shared/store/rule-group-writes.ts';
import { emptyGroup, type RuleGroup } from '../../shared/store/rule-groups.ts';

/** The writes of a group of rules, built without a store: what a run or a rule change costs, and what it moves. */
const at = (iso: string) => Date.parse(iso);
const group = (rules: RuleGroup['rules'], extra: Partial<RuleGroup> = {}): RuleGroup => ({
  ...emptyGroup('tnt_1', 'user-1', 'social'),
  version: 3,
  rules,
  ...extra,
});
const inputOf = (write: { input: unknown }) => write.input as { Item?: Record<string, any>; Key?: Record<string, string>; ConditionExpression?: string };

describe('a group’s writes', () => {
  it('a run that moves the group’s earliest next run: the group (if still the version read) and its index item moved, three writes for any number of rules', () => {
    const rules = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`rul_${index}`, { nextRunAt: '2026-11-26T10:00:00.000Z', consecutiveFailedRuns: 0 }]),
    );
    const before = group(rules, { dueSk: `${String(at('2026-11-26T10:00:00.000Z')).padStart(13, '0')}#tnt_1#user-1#social`, leaseUntil: 1 });
    const after = Object.fromEntries(
      Object.keys(rules).map((ruleId) => [ruleId, { nextRunAt: '2026-11-26T11:00:00.000Z', lastRunAt: '2026-11-26T10:00:05.000Z', consecutiveFailedRuns: 0 }]),
    );
    const writes = groupWrites(before, after, { release: true });
    expect(writes).toHaveLength(3);
    const [put, removed, added] = writes.map(inputOf);
    expect(put?.ConditionExpression).toBe('version = :version');
    expect(put?.Item).toMatchObject({ version: 4, rules: after });
    expect(put?.Item).not.toHaveProperty('leaseUntil'); // the claim is let go
    expect(removed?.Key?.sk).toBe(before.dueSk);
    expect(added?.Item?.sk).toBe(`${String(at('2026-11-26T11:00:00.000Z')).padStart(13, '0')}#tnt_1#user-1#social`);
    expect(put?.Item?.dueSk).toBe(added?.Item?.sk);
  });

  it('a change that leaves the earliest next run where it was writes the group alone, and keeps a claim unless told', () => {
    const dueSk = `${String(at('2026-11-26T10:00:00.000Z')).padStart(13, '0')}#tnt_1#user-1#social`;
    const before = group({ a: { nextRunAt: '2026-11-26T10:00:00.000Z', consecutiveFailedRuns: 0 } }, { dueSk, leaseUntil: 99 });
    const writes = groupWrites(before, { ...before.rules, b: { nextRunAt: '2026-11-27T10:00:00.000Z', consecutiveFailedRuns: 0 } });
    expect(writes).toHaveLength(1);
    expect(inputOf(writes[0] as { input: unknown }).Item).toMatchObject({ leaseUntil: 99, dueSk });
  });

  it('the last rule with a next run gone: the index item goes and none comes; a new group is created only if none is there', () => {
    const dueSk = 'x';
    expect(
      groupWrites(group({ a: { nextRunAt: '2026-11-26T10:00:00.000Z', consecutiveFailedRuns: 0 } }, { dueSk }), { a: { consecutiveFailedRuns: 0 } }).map(
        inputOf,
      ),
    ).toEqual([
      expect.objectContaining({ Item: expect.not.objectContaining({ dueSk }) }),
      expect.objectContaining({ Key: expect.objectContaining({ sk: dueSk }) }),
    ]);
    const [created] = groupWrites(emptyGroup('tnt_1', 'user-1', 'searchads'), { a: { nextRunAt: '2026-11-26T10:00:00.000Z', consecutiveFailedRuns: 0 } }).map(
      inputOf,
    );
    expect(created?.ConditionExpression).toBe('attribute_not_exists(sk)');
  });
});

describe('a group run’s log', () => {
  const run = (ruleId: string, evaluations = 1): RuleRun => ({
    runId: `run_0000000000001_${ruleId}`,
    ruleId,
    startedAt: '2026-11-26T10:00:00.000Z',
    finishedAt: '2026-11-26T10:00:05.000Z',
    status: 'completed',
    evaluations: Array.from({ length: evaluations }, (_, index) => ({
      campaignId: `c${index}`.padEnd(18, '0'),
      metrics: { 'spend.TODAY': '12.34' },
      matched: false,
    })),
    actions: [],
  });
  const asked = [
    { ruleId: 'rul_a', scheduledAt: '2026-11-26T10:00:00.000Z' },
    { ruleId: 'rul_b', scheduledAt: '2026-11-26T10:00:00.000Z' },
  ];

  it('is one item for a group of rules, keyed by what the run was asked, so a redelivery rewrites it', () => {
    const first = runLogWrites('tnt_1', 'user-1', 'social', asked, [run('rul_a'), run('rul_b')]).map(inputOf);
    const again = runLogWrites('tnt_1', 'user-1', 'social', asked, [run('rul_a'), run('rul_b')]).map(inputOf);
    expect(first).toHaveLength(1);
    expect(first[0]?.Item?.sk).toBe(again[0]?.Item?.sk);
    expect(first[0]?.Item?.ruleIds).toEqual(new Set(['rul_a', 'rul_b']));
    const other = runLogWrites('tnt_1', 'user-1', 'social', [asked[0] as (typeof asked)[number]], [run('rul_a')]).map(inputOf);
    expect(other[0]?.Item?.sk).not.toBe(first[0]?.Item?.sk);
  });

  it('a group too large for one item is logged in parts under DynamoDB’s item limit', () => {
    const many = Array.from({ length: 100 }, (_, index) => run(`rul_${index}`, 100));
    const parts = runLogWrites('tnt_1', 'user-1', 'social', asked, many).map(inputOf);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(JSON.stringify(part.Item?.runs))).toBeLessThan(400_000);
    expect(parts.flatMap((part) => part.Item?.runs).map((entry: RuleRun) => entry.ruleId)).toEqual(many.map((entry) => entry.ruleId));
  });
});
