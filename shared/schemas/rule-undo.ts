import * as z from 'zod';
import type { AuditSpec } from '../core/audit.ts';
import { userIdSchema } from './common.ts';
import { ruleActionOutcomeSchema } from './rules.ts';

/** Undoing a rule run (docs/rules.md, "Undo"): its changes set back, newest first, once. */
export const runIdSchema = z
  .string()
  .regex(/^run_\d{13}_[0-9a-f]{24}$/, 'must be a run id as list_rule_runs answered it')
  .describe('The run’s id, as list_rule_runs answered it.');

export const undoRuleRunFields = { userId: userIdSchema, runId: runIdSchema };

export const undoResultSchema = z.object({
  runId: z.string(),
  undoneAt: z.string().describe('When the first undo of the run finished; a repeat answers the same.'),
  actions: z
    .array(ruleActionOutcomeSchema)
    .describe('Each change of the run set back, newest first: `from` is what the rule set, `to` what it replaced; skipped when the campaign changed since.'),
});

export const ruleRunUndoAudit: AuditSpec<{ runId: string }, { actions?: Array<{ outcome: string }> }> = {
  action: 'rule_run.undone',
  target: (input) => ({ type: 'rule_run', id: input.runId }),
  changes: (_input, result) => ({ setBack: { to: result?.actions?.filter((action) => action.outcome === 'applied').length ?? 0 } }),
};
