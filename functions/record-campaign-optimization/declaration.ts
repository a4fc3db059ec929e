import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'record_campaign_optimization',
  method: 'POST',
  path: '/optimize_me/record_campaign_optimization',
  entry: handlerBeside(import.meta.url),
  writes: true,
  idempotent: true,
  audit: {
    action: 'optimization.recorded',
    target: (input) => ({ type: 'optimization', id: input.campaignId }),
    changes: (input) => ({ optimizationStatus: { to: input.optimizationStatus } }),
  },
};
