import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_campaign_analytics',
  method: 'POST',
  path: '/professional/get_campaign_analytics',
  entry: handlerBeside(import.meta.url),
  platform: 'professional',
};
