import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'set_conversion_stages',
  method: 'POST',
  path: '/conversions/set_stages',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  // each destination is checked against the platform's own list, on whichever platforms the stages name
  callsPlatforms: true,
  writes: true,
  audit: {
    action: 'conversions.stages_set',
    target: (input) => ({ type: 'conversion_stages', id: input.userId }),
    changes: (input) => ({ stages: { to: input.stages.length } }),
  },
};
