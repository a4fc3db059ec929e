import { PlatformRejected } from '../../core/errors.ts';
import { byCampaign, type CampaignMetricsReader, type DateRange, halves } from '../campaign-metrics.ts';
import type { DailyCounts } from '../performance.ts';
import { accountFacts } from './account.ts';
import type { SocialSession } from './client.ts';
import { DEFAULT_CONVERSION_TYPES, countsOfInsight, type InsightRow, insightRows } from './insights.ts';

/**
 * Many campaigns of a social ad account (docs/platforms.md, "Reading many campaigns"): one
 * `act_{id}/insights?level=campaign` query filtered by `campaign.id IN […]`, daily, paged by cursor.
 * When the platform asks for less data the range is halved and each half asked (a single day that is
 * still too big is an error).
 */
type Session = SocialSession & { connection: { adAccountId: string } };
/** pages one query may take (500 rows each) before the range is sliced instead */
const MAX_PAGES = 20;

export const socialCampaignMetrics: CampaignMetricsReader<Session> = {
  platform: 'social',
  account: (session) => accountFacts(session, session.connection.adAccountId),

  async read(session, campaignIds, range) {
    let requests = 0;
    const rows: Array<DailyCounts & { campaignId: string }> = [];
    const readRange = async (slice: DateRange): Promise<void> => {
      let found: InsightRow[];
      try {
        found = await insightRows(
          session,
          `act_${session.connection.adAccountId}/insights`,
          {
            level: 'campaign',
            time_range: JSON.stringify({ since: slice.startDate, until: slice.endDate }),
            filtering: JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: campaignIds }]),
          },
          { maxPages: MAX_PAGES, onRequest: () => requests++ },
        );
      } catch (error) {
        const parts = halves(slice);
        if (!(error instanceof PlatformRejected && error.extra.tooMuchData === true) || !parts) throw error;
        for (const part of parts) await readRange(part);
        return;
      }
      for (const row of found) rows.push({ campaignId: String(row.campaign_id ?? ''), ...countsOfInsight(row, DEFAULT_CONVERSION_TYPES) });
    };
    await readRange(range);
    return { days: byCampaign(rows, campaignIds), requests };
  },
};
