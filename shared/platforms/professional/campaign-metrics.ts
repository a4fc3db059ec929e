import { byCampaign, type CampaignMetricsReader, type DateRange, halves } from '../campaign-metrics.ts';
import type { DailyCounts } from '../performance.ts';
import { accountCurrency } from './account.ts';
import { analyticsElements, analyticsQuery, countsOfElement } from './analytics.ts';
import type { ProfessionalSession } from './client.ts';
import { professionalCampaignControl } from './campaign-control.ts';

/**
 * Many campaigns of a professional ad account (docs/platforms.md, "Reading many campaigns"): one
 * `adAnalytics` call for the whole account (`accounts=List(…)`, pivot CAMPAIGN, daily), kept to the
 * asked campaigns. The platform truncates an answer at 15,000 elements without saying so: an answer
 * that reaches that many is read again as two halves of the range. Days are UTC.
 */
type Session = ProfessionalSession & { adAccountId: string };
const TRUNCATED_AT = 15_000;

export const professionalCampaignMetrics: CampaignMetricsReader<Session> = {
  platform: 'professional',
  account: async (session) => ({ currency: await accountCurrency(session, session.adAccountId), timeZone: 'UTC' }),

  async campaignsIn(session, campaignIds) {
    return new Set((await professionalCampaignControl.readMany(session, campaignIds)).keys());
  },

  async read(session, campaignIds, range) {
    let requests = 0;
    const rows: Array<DailyCounts & { campaignId: string }> = [];
    const readRange = async (slice: DateRange): Promise<void> => {
      requests++;
      const elements = await analyticsElements(session, analyticsQuery({ accountId: session.adAccountId }, slice.startDate, slice.endDate));
      const parts = halves(slice);
      if (elements.length >= TRUNCATED_AT && parts) {
        for (const part of parts) await readRange(part);
        return;
      }
      rows.push(...elements.map(countsOfElement));
    };
    await readRange(range);
    return { days: byCampaign(rows, campaignIds), requests };
  },
};
