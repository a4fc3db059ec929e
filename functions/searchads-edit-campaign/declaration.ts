import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { campaignBudgetAudit } from '../../shared/schemas/campaign-control.ts';

export const declaration: FunctionDeclaration = {
  operation: 'searchads_edit_campaign',
  method: 'POST',
  path: '/searchads/edit_campaign',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  platform: 'searchads',
  writes: true,
  idempotent: true,
  audit: campaignBudgetAudit,
};
