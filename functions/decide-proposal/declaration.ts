import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { proposalAudit } from '../../shared/schemas/proposals.ts';

export const declaration: FunctionDeclaration = {
  operation: 'decide_proposal',
  method: 'POST',
  path: '/optimize_me/decide_proposal',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  writes: true,
  // an approval changes the campaign on the proposal's platform, whichever it is
  callsPlatforms: true,
  idempotent: true,
  audit: proposalAudit,
};
