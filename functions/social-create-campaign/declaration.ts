import { LAUNCH_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'social_create_campaign',
  method: 'POST',
  path: '/social/create_campaign',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  ...LAUNCH_FUNCTION,
};
