import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { ruleAudit } from '../../shared/schemas/rules.ts';

export const declaration: FunctionDeclaration = {
  operation: 'update_rule',
  method: 'POST',
  path: '/optimize_me/update_rule',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  writes: true,
  // reads the account's campaigns on the rule's platform, whichever it is
  callsPlatforms: true,
  audit: ruleAudit('rule.updated'),
};
