import { EuDeclarationRequired } from '../core/errors.ts';
import { log } from '../core/logger.ts';
import { firstNoticeToday } from '../store/daily-notices.ts';
import { recordWebhookEvent } from './events.ts';

/**
 * A search-ads account blocked by undeclared campaigns tells the tenant with
 * `searchads.declaration_required`, at most once a UTC day per account (docs/decisions.md, "The EU
 * political-advertising declaration"). Stored for the outbox relay, as the reconnect notice is.
 */
export async function noteDeclarationRequired(tenantId: string, userId: string, error: unknown): Promise<void> {
  if (!(error instanceof EuDeclarationRequired)) return;
  try {
    if (!(await firstNoticeToday(tenantId, 'searchads.declaration_required', error.customerId))) return;
    await recordWebhookEvent(
      tenantId,
      'searchads.declaration_required',
      { userId, customerId: error.customerId, campaignIds: error.campaignIds },
      { relay: true },
    );
  } catch (failure) {
    log().error('could not record the declaration notice', { error: (failure as Error).name });
  }
}
