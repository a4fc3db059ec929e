import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_search_campaign',
  method: 'POST',
  path: '/searchads/create_search_campaign',
  entry: handlerBeside(import.meta.url),
  platform: 'searchads',
  writes: true,
  idempotent: true,
  memoryMb: 512,
  audit: {
    action: 'search_campaign.created',
    target: (_input, result) => ({ type: 'search_campaign', id: result?.campaignResourceName ?? '' }),
    changes: (input) => ({ name: { to: input.campaignName }, dailyBudget: { to: input.dailyBudget }, objective: { to: input.objective } }),
    writes: (input) => !input.validateOnly, // a dry run creates nothing
  },
};
