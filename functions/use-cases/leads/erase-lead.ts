import { NotFound } from '../../../shared/core/errors.ts';
import { eraseLead } from '../../../shared/store/lead-writes.ts';
import type { LeadPlatform } from './lead-sources.ts';

/** `erase_lead`: the lead gone for good (docs/leads.md, "Personal data"); 404 when the user has no such lead. */
export async function eraseLeadFor(tenantId: string, userId: string, leadId: string, platform?: LeadPlatform): Promise<{ leadId: string; erased: true }> {
  for (const candidate of platform ? [platform] : (['social', 'professional'] as const)) {
    if (await eraseLead(tenantId, userId, candidate, leadId)) return { leadId, erased: true };
  }
  throw new NotFound(`The user has no lead ${leadId}.`);
}
