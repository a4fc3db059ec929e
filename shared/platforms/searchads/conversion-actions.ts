import { ScopeMissing } from '../../core/errors.ts';
import { grantedScopes } from '../../store/users.ts';
import type { ConversionDestination, ConversionDestinations } from '../conversions.ts';
import { adsRequest, type SearchadsSession } from './client.ts';
import { DATA_MANAGER_SCOPE } from './consent.ts';

/**
 * The conversion actions a user's CRM events can go to (docs/conversions.md): the account's enabled
 * actions of type UPLOAD_CLICKS (the only type that takes offline events), read with one GAQL query.
 * Events go through the Data Manager API to the account that owns the action; whether the user's
 * grant reaches a manager that owns one is not known, so only actions the customer owns are offered.
 */
export const CONVERSION_ACTIONS_QUERY =
  'SELECT conversion_action.id, conversion_action.name, conversion_action.status, conversion_action.type, ' +
  'conversion_action.click_through_lookback_window_days, conversion_action.owner_customer ' +
  "FROM conversion_action WHERE conversion_action.type = 'UPLOAD_CLICKS' AND conversion_action.status = 'ENABLED'";

interface ActionRow {
  conversionAction?: { id?: string; name?: string; ownerCustomer?: string; clickThroughLookbackWindowDays?: string };
}

export const searchadsConversionDestinations: ConversionDestinations<SearchadsSession> = {
  checkScopes(user) {
    const granted = grantedScopes(user, 'searchads');
    if (granted && !granted.includes(DATA_MANAGER_SCOPE)) throw new ScopeMissing('searchads', DATA_MANAGER_SCOPE);
  },
  async list(session) {
    const batches = await adsRequest<Array<{ results?: ActionRow[] }>>(
      session,
      'googleAds:searchStream',
      { query: CONVERSION_ACTIONS_QUERY },
      { retrySafe: true },
    );
    const owner = `customers/${session.customerId}`;
    return (batches ?? [])
      .flatMap((batch) => batch.results ?? [])
      .map((row) => row.conversionAction ?? {})
      .filter((action) => action.id && (action.ownerCustomer === undefined || action.ownerCustomer === owner))
      .map((action): ConversionDestination => {
        const lookback = Number(action.clickThroughLookbackWindowDays);
        return {
          destinationId: String(action.id),
          name: String(action.name ?? action.id),
          kind: 'conversion_action',
          ...(Number.isInteger(lookback) && lookback > 0 ? { lookbackDays: lookback } : {}),
        };
      });
  },
};
