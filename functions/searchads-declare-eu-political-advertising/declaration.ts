import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'searchads_declare_eu_political_advertising',
  method: 'POST',
  path: '/searchads/declare_eu_political_advertising',
  entry: handlerBeside(import.meta.url),
  unchangedByRepeat: true,
  platform: 'searchads',
  writes: true,
  idempotent: true,
  audit: {
    action: 'campaign.eu_political_declared',
    target: (_input, result) => ({ type: 'campaign', id: (result as { declared?: string[] } | undefined)?.declared?.join(',') || 'none' }),
    changes: (input, result) => ({
      containsEuPoliticalAdvertising: { to: (input as { containsEuPoliticalAdvertising: boolean }).containsEuPoliticalAdvertising },
      campaigns: {
        to: (result as { declared?: string[] } | undefined)?.declared ?? (input as { campaignIds?: string[] }).campaignIds ?? 'every undeclared one',
      },
    }),
  },
};
