import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { RUN_ID_EXAMPLE } from '../../shared/schemas/rule-examples.ts';
import { undoRuleRunRequest, undoRuleRunResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['UNDO_WINDOW_PASSED', 'SCOPE_MISSING'],
  summary: 'Undo a rule run',
  description:
    'Sets back, newest first, every change the run applied, each only while the campaign still holds the value the rule set (else `skipped`, changed since), through campaign control (history source `{type: "undo", runId}`), within 7 days of the run, exactly once: a repeat answers the first undo’s result. The set-backs run as a `rule_undo` job: the request answers `status: "undone"` when they end within it, else `status: "running"` with the `jobId` that goes on with the rest (get_job, `rule_undo.succeeded`); asking again then answers the same job, and the undo once it is done.',
  tag: 'Optimization',
  request: undoRuleRunRequest,
  result: undoRuleRunResultSchema,
  requestExample: { userId: 'demo-user', runId: RUN_ID_EXAMPLE },
  resultExample: {
    runId: RUN_ID_EXAMPLE,
    status: 'undone',
    undoneAt: `${day(1)}T08:00:00.000Z`,
    actions: [{ campaignId: '120210987000000100', type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' }],
  },
};
