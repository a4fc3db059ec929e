import { PlatformRejected } from '../../core/errors.ts';
import type { CampaignListItem } from '../../schemas/social.ts';
import { graphRequest, type SocialSession } from './client.ts';
import type { GraphPaging } from './paging.ts';
import { pickPresent } from './pick.ts';

/**
 * docs/platforms.md, "Social": every campaign of the ad account. The edge hides archived and deleted campaigns
 * unless asked, so every effective status is named; all pages are followed.
 */
export const CAMPAIGN_FIELDS = ['id', 'name', 'objective', 'daily_budget', 'status', 'issues_info', 'created_time'] as const;
export const EVERY_EFFECTIVE_STATUS = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES'] as const;
const CAMPAIGN_PAGE_SIZE = 100;
/** 10,000 campaigns; beyond that the answer would outgrow a Lambda response */
const MAX_PAGES = 100;

function toCampaignListItem(campaign: Record<string, unknown>): CampaignListItem {
  const issues = campaign.issues_info;
  const budget = campaign.daily_budget;
  return {
    ...pickPresent(campaign, ['id', 'name', 'objective'] as const),
    daily_budget: budget === undefined || budget === null ? '' : String(budget),
    ...pickPresent(campaign, ['status'] as const),
    issues_info: issues === undefined || issues === null ? '' : JSON.stringify(issues),
    ...pickPresent(campaign, ['created_time'] as const),
  } as CampaignListItem;
}

export async function listCampaigns(session: SocialSession, adAccountId: string): Promise<CampaignListItem[]> {
  const campaigns: CampaignListItem[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await graphRequest<{ data?: Array<Record<string, unknown>>; paging?: GraphPaging }>(session, 'GET', `act_${adAccountId}/campaigns`, {
      fields: CAMPAIGN_FIELDS.join(','),
      effective_status: [...EVERY_EFFECTIVE_STATUS],
      limit: CAMPAIGN_PAGE_SIZE,
      ...(after ? { after } : {}),
    });
    campaigns.push(...(body.data ?? []).map(toCampaignListItem));
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
    if (!after) return campaigns;
  }
  throw new PlatformRejected('social', `The ad account has more than ${MAX_PAGES * CAMPAIGN_PAGE_SIZE} campaigns, more than one answer can hold.`);
}
