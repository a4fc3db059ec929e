import type { Context } from 'aws-lambda';
import type { Answer } from '../../../shared/core/audit.ts';
import { unchanged } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { NotFound, PlatformNotConnected, UndoWindowPassed } from '../../../shared/core/errors.ts';
import { findRunUndo } from '../../../shared/store/rule-undos.ts';
import { findRuleRun } from '../../../shared/store/rules.ts';
import type { User } from '../../../shared/store/users.ts';
import { changesOf, RUN_ID, UNDO_DAYS, withdrawPending } from './rule-undo.ts';
import { type UndoAnswer, undoInRequest } from './rule-undo-job.ts';

/**
 * `POST /optimize_me/undo_rule_run` (docs/rules.md, "Undo"): the run found and checked (its window, an
 * undo stored already), its pending proposals withdrawn, then its changes set back by the undo job,
 * in this request while its time lasts (rule-undo-job.ts).
 */
export async function undoRuleRun(tenantId: string, user: User, runId: string, context: Context): Promise<Answer<UndoAnswer>> {
  const [, dueMs, ruleHex] = RUN_ID.exec(runId) ?? [];
  const found = dueMs && ruleHex ? await findRuleRun(tenantId, user.userId, runId, `rul_${ruleHex}`, Number(dueMs)) : undefined;
  if (!found) throw new NotFound(`No rule run ${runId} for this user.`);
  const done = await findRunUndo(tenantId, runId);
  if (done) return unchanged(done);
  const ranAt = Date.parse(found.run.startedAt);
  if (clock.now() - ranAt > UNDO_DAYS * 86_400_000)
    throw new UndoWindowPassed(`Run ${runId} ran at ${found.run.startedAt}; a run can be undone for ${UNDO_DAYS} days after it ran. Nothing was changed.`);
  // the run's proposals still waiting for a person are withdrawn first: none can be approved after its run is undone
  await withdrawPending(tenantId, user.userId, found.run.actions);
  if ((await changesOf(tenantId, user.userId, found.run.actions)).length > 0 && !user.connections[found.platform])
    throw new PlatformNotConnected(found.platform);
  // the set-backs run as a job, in this request while its time lasts, then on the queue (rule-undo-job.ts)
  return undoInRequest({ tenantId, user, context }, { runId, ruleId: found.run.ruleId, platform: found.platform });
}
