import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_conversion_destinations',
  method: 'POST',
  path: '/conversions/list_destinations',
  entry: handlerBeside(import.meta.url),
  // the platform is the request's, any of the three
  callsPlatforms: true,
};
