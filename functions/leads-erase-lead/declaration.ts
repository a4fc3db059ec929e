import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'erase_lead',
  method: 'POST',
  path: '/leads/erase_lead',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  writes: true,
  audit: {
    action: 'lead.erased',
    target: (input) => ({ type: 'lead', id: input.leadId }),
  },
};
