import { adsRequest, type SearchadsSession, undeclaredCampaignIds } from './client.ts';

/**
 * The EU political-advertising declaration of search-ads campaigns (contracts: search ads §2.3a;
 * docs/decisions.md, "The EU political-advertising declaration"): an update whose only change is
 * `containsEuPoliticalAdvertising` is accepted even while the account's other writes are blocked. Every
 * campaign asked for goes in one `campaigns:mutate`, one operation each, all or nothing.
 */
export async function declareCampaigns(session: SearchadsSession, campaignIds: string[] | undefined, contains: boolean): Promise<string[]> {
  const ids = campaignIds ?? (await undeclaredCampaignIds(session));
  if (ids.length === 0) return [];
  await adsRequest(
    session,
    'campaigns:mutate',
    {
      operations: ids.map((id) => ({
        update: {
          resourceName: `customers/${session.customerId}/campaigns/${id}`,
          containsEuPoliticalAdvertising: contains ? 'CONTAINS_EU_POLITICAL_ADVERTISING' : 'DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING',
        },
        updateMask: 'contains_eu_political_advertising',
      })),
    },
    { retrySafe: true },
  );
  return ids;
}
