import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_report',
  method: 'POST',
  path: '/reports/get_report',
  entry: handlerBeside(import.meta.url),
  // the platform is the request's: any of the three
  callsPlatforms: true,
};
