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

const undoneActions = z
  .array(ruleActionOutcomeSchema)
  .describe('Each change of the run set back, newest first: `from` is what the rule set, `to` what it replaced; skipped when the campaign changed since.');

/** A finished undo, as stored and answered. */
export const undoneSchema = z.object({
  runId: z.string(),
  status: z.literal('undone'),
  undoneAt: z.string().describe('When the first undo of the run finished; a repeat answers the same.'),
  actions: undoneActions,
});

/** The undo's answer: done within the request, or going on as a job (a run that changed more than a request's time sets back). */
export const undoResultSchema = z.discriminatedUnion('status', [
  undoneSchema,
  z
    .object({
      runId: z.string(),
      status: z.literal('running'),
      jobId: z.string().describe('The `rule_undo` job that goes on with it: follow it with get_job, or wait for `rule_undo.succeeded`.'),
      actions: undoneActions.describe('The changes set back so far, newest first; the job sets back the rest.'),
    })
    .describe('The undo did not end within the request: a job goes on with it, from where the request stopped.'),
]);

/** What a rule_undo job stores (rule-undo-job.ts runs it; get_job shows the checkpoint as its progress). */
export const ruleUndoRequestSchema = z.object({ runId: z.string(), ruleId: z.string(), platform: z.enum(['social', 'searchads', 'professional']) });
export const ruleUndoCheckpointSchema = z.object({ actions: z.array(ruleActionOutcomeSchema) });

export const ruleRunUndoAudit: AuditSpec<{ runId: string }, { actions?: Array<{ outcome: string }> }> = {
  action: 'rule_run.undone',
  target: (input) => ({ type: 'rule_run', id: input.runId }),
  changes: (_input, result) => ({ setBack: { to: result?.actions?.filter((action) => action.outcome === 'applied').length ?? 0 } }),
};
