import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { campaignStatusAudit } from '../../shared/schemas/campaign-control.ts';

export const declaration: FunctionDeclaration = {
  operation: 'searchads_update_campaign_status',
  method: 'POST',
  path: '/searchads/update_campaign_status',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  platform: 'searchads',
  writes: true,
  idempotent: true,
  audit: campaignStatusAudit,
};
