import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_campaign_insights',
  method: 'POST',
  path: '/social/get_campaign_insights',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
};
