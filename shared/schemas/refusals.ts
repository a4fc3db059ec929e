import type { CampaignRefusalCode } from '../core/errors.ts';

/**
 * The refusals operations answer in band (HTTP 200, `results.success` false) besides the platform's own,
 * in a module of their own so that a function naming one does not bundle the document's descriptions
 * (shared/schemas/operation-doc.ts).
 */
export type InBandRefusal =
  | CampaignRefusalCode
  | 'SCOPE_MISSING'
  | 'ACCOUNT_NOT_ELIGIBLE'
  | 'EU_POLITICAL_DECLARATION_REQUIRED'
  | 'STALE_PROPOSAL'
  | 'PROPOSAL_EXPIRED'
  | 'PROPOSAL_DECIDED'
  | 'UNDO_WINDOW_PASSED';

/** What campaign control refuses from the campaign's state. */
export const STATUS_REFUSALS = ['CAMPAIGN_NOT_FOUND', 'CAMPAIGN_REMOVED', 'INVALID_TRANSITION'] as const satisfies readonly InBandRefusal[];
/** What a search-ads account refuses while one of its campaigns lacks the EU political-advertising declaration. */
export const DECLARATION_REFUSAL = 'EU_POLITICAL_DECLARATION_REQUIRED' as const satisfies InBandRefusal;
export const BUDGET_REFUSALS = [
  'CAMPAIGN_NOT_FOUND',
  'CAMPAIGN_REMOVED',
  'BUDGET_NOT_ON_CAMPAIGN',
  'SHARED_BUDGET',
  'BUDGET_TOO_LOW',
] as const satisfies readonly InBandRefusal[];
