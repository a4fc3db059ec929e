import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_leads',
  method: 'POST',
  path: '/leads/list_leads',
  entry: handlerBeside(import.meta.url),
  sealsConnections: true, // opens the sealed leads
};
