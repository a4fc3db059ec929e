import { PlatformRejected } from '../../core/errors.ts';
import { byCampaign, type CampaignMetricsReader, type DateRange, halves } from '../campaign-metrics.ts';
import type { DailyCounts } from '../performance.ts';
import { accountFacts } from './account.ts';
import { listCampaigns } from './campaigns.ts';
import type { SocialSession } from './client.ts';
import { DEFAULT_CONVERSION_TYPES, countsOfInsight, type InsightRow, insightRows, reportRunRows } from './insights.ts';

/**
 * Many campaigns of a social ad account (docs/platforms.md, "Reading many campaigns"): one
 * `act_{id}/insights?level=campaign` query filtered by `campaign.id IN […]`, daily, paged by cursor.
 * When the platform asks for less data the range is halved and each half asked; a single day still
 * too big is asked as an asynchronous report run.
 */
type Session = SocialSession & { connection: { adAccountId: string } };
/** pages one query may take (500 rows each) before the range is sliced instead */
const MAX_PAGES = 20;

export const socialCampaignMetrics: CampaignMetricsReader<Session> = {
  platform: 'social',
  account: (session) => accountFacts(session, session.connection.adAccountId),

  async campaignsIn(session, campaignIds) {
    const wanted = new Set(campaignIds);
    const listed = await listCampaigns(session, session.connection.adAccountId);
    return new Set(listed.map((campaign) => campaign.id).filter((id) => wanted.has(id)));
  },

  async read(session, campaignIds, range) {
    let requests = 0;
    const rows: Array<DailyCounts & { campaignId: string }> = [];
    const path = `act_${session.connection.adAccountId}/insights`;
    const params = (slice: DateRange) => ({
      level: 'campaign',
      time_range: JSON.stringify({ since: slice.startDate, until: slice.endDate }),
      filtering: JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: campaignIds }]),
    });
    const rowOf = (row: InsightRow) => ({ campaignId: String(row.campaign_id ?? ''), ...countsOfInsight(row, DEFAULT_CONVERSION_TYPES) });
    const readRange = async (slice: DateRange): Promise<void> => {
      let found: InsightRow[];
      try {
        found = await insightRows(session, path, params(slice), { maxPages: MAX_PAGES, onRequest: () => requests++ });
      } catch (error) {
        if (!(error instanceof PlatformRejected && error.extra.tooMuchData === true)) throw error;
        const parts = halves(slice);
        if (parts) for (const part of parts) await readRange(part);
        // a single day still too big: the same query as a report run
        else for (const row of await reportRunRows(session, path, params(slice), { onRequest: () => requests++ })) rows.push(rowOf(row));
        return;
      }
      for (const row of found) rows.push(rowOf(row));
    };
    await readRange(range);
    return { days: byCampaign(rows, campaignIds), requests };
  },
};
