import { LAUNCH_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'professional_create_campaign',
  method: 'POST',
  path: '/professional/create_campaign',
  entry: handlerBeside(import.meta.url),
  platform: 'professional',
  ...LAUNCH_FUNCTION,
};
