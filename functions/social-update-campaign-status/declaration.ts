import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { campaignStatusAudit } from '../../shared/schemas/campaign-control.ts';

export const declaration: FunctionDeclaration = {
  operation: 'social_update_campaign_status',
  method: 'POST',
  path: '/social/update_campaign_status',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  platform: 'social',
  writes: true,
  idempotent: true,
  audit: campaignStatusAudit,
};
