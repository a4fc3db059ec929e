import { PlatformRejected, ScopeMissing } from '../../core/errors.ts';
import { grantedScopes } from '../../store/users.ts';
import type { ConversionDestination, ConversionDestinations } from '../conversions.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';
import { accountUrn } from './urns.ts';

/**
 * The conversion rules a user's CRM events can go to (docs/conversions.md): the ad account's rules of
 * the Conversions API method that are enabled, whatever their type (newer versions add types). Sending
 * needs `rw_conversions`, which connect links ask for since conversions came.
 */
export const CONVERSIONS_SCOPE = 'rw_conversions';

interface ConversionRule {
  id?: number | string;
  name?: string;
  conversionMethod?: string;
  enabled?: boolean;
}
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

export const professionalConversionDestinations: ConversionDestinations<ProfessionalSession & { adAccountId: string }> = {
  checkScopes(user) {
    const granted = grantedScopes(user, 'professional');
    if (granted && !granted.includes(CONVERSIONS_SCOPE)) throw new ScopeMissing('professional', CONVERSIONS_SCOPE);
  },
  async list(session, user) {
    const account = encodeURIComponent(accountUrn(session.adAccountId));
    const rules: ConversionRule[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const { body } = await restliRequest(session, 'GET', `/conversions?q=account&account=${account}&start=${page * PAGE_SIZE}&count=${PAGE_SIZE}`).catch(
        (error: unknown) => {
          // a grant given as tokens is taken to hold the scope until the platform refuses it; a refusal of a grant known to hold it is the platform's own
          const unknownScopes = grantedScopes(user, 'professional') === undefined;
          if (unknownScopes && error instanceof PlatformRejected && error.extra.platformStatus === 403)
            throw new ScopeMissing('professional', CONVERSIONS_SCOPE);
          throw error;
        },
      );
      const elements = (body as { elements?: ConversionRule[] } | null)?.elements ?? [];
      rules.push(...elements);
      const total = (body as { paging?: { total?: number } } | null)?.paging?.total;
      if (elements.length < PAGE_SIZE || (total !== undefined && rules.length >= total)) break;
    }
    return rules
      .filter((rule) => rule.id !== undefined && rule.conversionMethod === 'CONVERSIONS_API' && rule.enabled === true)
      .map((rule): ConversionDestination => ({ destinationId: String(rule.id), name: String(rule.name ?? rule.id), kind: 'conversion_rule' }));
  },
};
