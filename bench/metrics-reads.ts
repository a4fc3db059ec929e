import { randomInt } from 'node:crypto';
import type { LocalStack } from '../local/stack.ts';
import { DEMO_CONNECTIONS } from '../local/sandbox/demo-data.ts';
import { clock } from '../shared/core/clock.ts';
import type { CampaignMetricsReader } from '../shared/platforms/campaign-metrics.ts';
import { professionalCampaignMetrics } from '../shared/platforms/professional/campaign-metrics.ts';
import { searchadsCampaignMetrics } from '../shared/platforms/searchads/campaign-metrics.ts';
import { socialCampaignMetrics } from '../shared/platforms/social/campaign-metrics.ts';

/**
 * The many-campaign reader's upstream requests for 1, 50 and 500 campaigns of one account, a 7-day
 * window, each platform: counted by the reader and checked against the sandbox's recording.
 */
type Platform = 'social' | 'searchads' | 'professional';

async function seed(stack: LocalStack, platform: Platform, account: string, count: number): Promise<string[]> {
  const response = await fetch(`${stack.sandboxes[platform]?.url}/__sandbox/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, count }),
  });
  return ((await response.json()) as { ids: string[] }).ids;
}

const recordedCount = async (stack: LocalStack, platform: Platform) =>
  ((await (await fetch(`${stack.sandboxes[platform]?.url}/__sandbox/requests?count=1`)).json()) as { count: number }).count;

export async function metricsReads(
  stack: LocalStack,
): Promise<Array<{ platform: Platform; campaigns: number; requests: number; recorded: number; rows: number }>> {
  const deadline = () => clock.now() + 60_000;
  const range = { startDate: clock.today(-7), endDate: clock.today(-1) };
  const accountFor: Record<Platform, () => string> = {
    social: () => String(randomInt(1_400_000_000_000_000, 1_499_999_999_999_999)),
    searchads: () => String(randomInt(7_000_000_000, 7_999_999_999)),
    professional: () => String(randomInt(700_000_000, 799_999_999)),
  };
  const read = (platform: Platform, account: string, ids: string[]) => {
    const readers = { social: socialCampaignMetrics, searchads: searchadsCampaignMetrics, professional: professionalCampaignMetrics };
    const sessions = {
      social: { accessToken: DEMO_CONNECTIONS.social.accessToken, deadline: deadline(), connection: { adAccountId: account } },
      searchads: { refreshToken: DEMO_CONNECTIONS.searchads.refreshToken, customerId: account, deadline: deadline() },
      professional: { accessToken: DEMO_CONNECTIONS.professional.accessToken, adAccountId: account, deadline: deadline() },
    };
    return (readers[platform] as CampaignMetricsReader<unknown>).read(sessions[platform], ids, range);
  };
  const figures = [];
  for (const platform of ['social', 'searchads', 'professional'] as const) {
    for (const campaigns of [1, 50, 500]) {
      const account = accountFor[platform]();
      const ids = await seed(stack, platform, account, campaigns);
      await read(platform, account, ids); // the token and the account's facts, once per process
      const before = await recordedCount(stack, platform);
      const answer = await read(platform, account, ids);
      const recorded = (await recordedCount(stack, platform)) - before;
      figures.push({ platform, campaigns, requests: answer.requests, recorded, rows: [...answer.days.values()].flat().length });
    }
  }
  return figures;
}
