import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { campaignBudgetAudit } from '../../shared/schemas/campaign-control.ts';

export const declaration: FunctionDeclaration = {
  operation: 'professional_edit_campaign',
  method: 'POST',
  path: '/professional/edit_campaign',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  platform: 'professional',
  writes: true,
  idempotent: true,
  audit: campaignBudgetAudit,
};
