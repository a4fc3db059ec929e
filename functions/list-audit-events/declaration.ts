import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_audit_events',
  method: 'POST',
  path: '/tenant/list_audit_events',
  entry: handlerBeside(import.meta.url),
};
