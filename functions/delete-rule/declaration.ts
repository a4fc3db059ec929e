import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { ruleAudit } from '../../shared/schemas/rules.ts';

export const declaration: FunctionDeclaration = {
  operation: 'delete_rule',
  method: 'POST',
  path: '/optimize_me/delete_rule',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  writes: true,
  audit: ruleAudit('rule.deleted'),
};
