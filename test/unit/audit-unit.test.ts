import { describe, expect, it } from 'vitest';
import { type AuditDraft, type AuditScope, AuditUnit, auditScope, noAudit, runAudited, unchanged, unchangedBy } from '../../shared/core/audit.ts';
import { InvalidRequest, PlatformError } from '../../shared/core/errors.ts';

/** The explicit audit unit and runAudited, on a recorder that only keeps what it is given: no store. */
const describeRule = (result: object | undefined, failure?: { code: string }): AuditDraft => ({
  tenantId: 'tnt_1',
  action: 'rule.created',
  target: { type: 'rule', id: (result as { ruleId?: string } | undefined)?.ruleId ?? 'unknown' },
  ...(failure ? { outcome: 'failed' as const, error: failure } : {}),
});
const scope: AuditScope = { actor: { type: 'api_key', id: 'key_1' }, requestId: 'req_1' };

function recorder() {
  const recorded: AuditDraft[] = [];
  return { recorded, record: async (draft: AuditDraft) => void recorded.push(draft) };
}

describe('an audit unit', () => {
  it('an event a transaction stored is not recorded again', async () => {
    const { recorded, record } = recorder();
    const unit = new AuditUnit(describeRule);
    await runAudited(scope, unit, record, async () => {
      const pending = unit.event({ ruleId: 'rul_1' });
      expect(pending?.draft.target).toEqual({ type: 'rule', id: 'rul_1' });
      pending?.stored(); // what sendAuditedTogether does once its transaction committed
      return { ruleId: 'rul_1' };
    });
    expect(recorded).toEqual([]);
  });

  it('an event no write took (a platform’s change) is recorded once, after the answer, in the scope', async () => {
    const { recorded, record } = recorder();
    let seenScope: AuditScope | undefined;
    const unit = new AuditUnit(describeRule);
    await runAudited(scope, unit, record, async () => {
      seenScope = auditScope();
      unit.event({ ruleId: 'rul_2' }); // handed to a write that then failed its condition: never stored
      return { ruleId: 'rul_2' };
    });
    expect(seenScope).toEqual(scope);
    expect(recorded).toEqual([{ tenantId: 'tnt_1', action: 'rule.created', target: { type: 'rule', id: 'rul_2' } }]);
  });

  it('an answer returned unchanged (what an earlier call did) records nothing, and the client gets the answer inside', async () => {
    const { recorded, record } = recorder();
    const answer = await runAudited(scope, new AuditUnit(describeRule), record, async () => unchanged({ ruleId: 'rul_3' }));
    expect(answer).toEqual({ ruleId: 'rul_3' });
    expect(recorded).toEqual([]);
  });

  it('a refusal of our own before any write (unchangedBy) records no failed event', async () => {
    const { recorded, record } = recorder();
    const guard = unchangedBy(new PlatformError('social', 429, 'PLATFORM_RATE_LIMITED', 'budget changes used up'));
    await expect(runAudited(scope, new AuditUnit(describeRule), record, () => Promise.reject(guard))).rejects.toBe(guard);
    expect(recorded).toEqual([]);
  });

  it('a platform’s refusal is recorded as failed with its code; our own refusal records nothing', async () => {
    const { recorded, record } = recorder();
    const refused = new PlatformError('social', 400, 'BUDGET_TOO_LOW', 'too low');
    await expect(runAudited(scope, new AuditUnit(describeRule), record, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(recorded).toEqual([
      { tenantId: 'tnt_1', action: 'rule.created', target: { type: 'rule', id: 'unknown' }, outcome: 'failed', error: { code: 'BUDGET_TOO_LOW' } },
    ]);
    const ours = new InvalidRequest('bad', []);
    await expect(runAudited(scope, new AuditUnit(describeRule), record, () => Promise.reject(ours))).rejects.toBe(ours);
    expect(recorded).toHaveLength(1);
  });

  it('what only the write knows joins the declared changes', () => {
    const unit = new AuditUnit(() => ({
      tenantId: 't',
      action: 'settings.updated',
      target: { type: 'settings', id: 'settings' },
      changes: { a: { from: 1, to: 2 } },
    }));
    expect(unit.event({}, { changes: { b: { from: 'x', to: 'y' } } })?.draft.changes).toEqual({ a: { from: 1, to: 2 }, b: { from: 'x', to: 'y' } });
  });

  it('a call whose operation declares no event hands no event to its write and records nothing', async () => {
    const { recorded, record } = recorder();
    const unit = noAudit();
    expect(unit.event({ ruleId: 'x' })).toBeUndefined();
    await runAudited(scope, unit, record, async () => ({}));
    expect(recorded).toEqual([]);
  });

  it('a recorder that fails does not turn a done write into an error', async () => {
    const unit = new AuditUnit(describeRule);
    await expect(
      runAudited(
        scope,
        unit,
        () => Promise.reject(new Error('store down')),
        async () => ({ ruleId: 'r' }),
      ),
    ).resolves.toEqual({ ruleId: 'r' });
  });
});
