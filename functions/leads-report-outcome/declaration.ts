import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'report_outcome',
  method: 'POST',
  path: '/leads/report_outcome',
  entry: handlerBeside(import.meta.url),
  writes: true,
  // the lead's values are opened to hash them, never stored or answered
  sealsConnections: true,
  sendsTo: ['ConversionDeliveries'],
  accepted: true,
};
