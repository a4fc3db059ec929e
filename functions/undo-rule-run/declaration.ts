import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { ruleRunUndoAudit } from '../../shared/schemas/rule-undo.ts';

export const declaration: FunctionDeclaration = {
  operation: 'undo_rule_run',
  method: 'POST',
  path: '/optimize_me/undo_rule_run',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  writes: true,
  // an undo that outlasts its request hands the rest to the job queue
  sendsTo: ['Jobs'],
  // sets campaigns back on the run's platform, whichever it is
  callsPlatforms: true,
  idempotent: true,
  audit: ruleRunUndoAudit,
};
