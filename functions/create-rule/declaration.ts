import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { ruleAudit } from '../../shared/schemas/rules.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_rule',
  method: 'POST',
  path: '/optimize_me/create_rule',
  entry: handlerBeside(import.meta.url),
  writes: true,
  // reads the account's campaigns on the rule's platform, whichever it is
  callsPlatforms: true,
  idempotent: true,
  audit: ruleAudit('rule.created'),
};
