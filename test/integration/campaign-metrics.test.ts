import Big from 'big.js';
import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { dailyAnalytics } from '../../local/sandbox/professional-analytics.ts';
import { dailyMetrics } from '../../local/sandbox/searchads-reports.ts';
import { dailyRow } from '../../shared/platforms/performance.ts';
import { professionalCampaignMetrics } from '../../shared/platforms/professional/campaign-metrics.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { searchadsCampaignMetrics } from '../../shared/platforms/searchads/campaign-metrics.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { socialCampaignMetrics } from '../../shared/platforms/social/campaign-metrics.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { injectFault, stackNow, upstreamRequests, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { lambdaContext, seedCampaigns, storedUser } from '../helpers/scale.ts';
import { newSocialUser } from '../helpers/social.ts';

/**
 * The many-campaign reader against the sandboxes: 50 campaigns of an account read with one upstream
 * query per platform, and the same rows as the one-campaign routes give.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const dayOf = (now: number, offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
const withoutAccountFacts = (path: string) => !/\/act_\d+$|\/adAccounts\/\d+$|googleAds:search$/.test(path);

describe('the many-campaign reader', () => {
  it('social: one act insights query at campaign level filtered by id, the same rows as get_campaign_insights', async () => {
    const account = String(randomInt(1_300_000_000_000_000, 1_399_999_999_999_999));
    const ids = await seedCampaigns('social', account, 50);
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: account });
    const now = await stackNow();
    const range = { startDate: dayOf(now, -3), endDate: dayOf(now, -1) };
    const session = socialSession(await storedUser(apiKey, userId), lambdaContext);

    const read = await socialCampaignMetrics.read(session, ids, range);
    const requests = (await upstreamRequestsWith('social', token)).filter((request) => withoutAccountFacts(request.path));
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v26.0/act_${account}/insights`]);
    expect(read.requests).toBe(1);
    expect(requests[0]?.query).toMatchObject({
      level: 'campaign',
      time_increment: '1',
      time_range: JSON.stringify({ since: range.startDate, until: range.endDate }),
      filtering: JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: ids }]),
    });
    expect([...read.days.keys()]).toEqual(ids);
    expect([...read.days.values()].flat().length).toBeGreaterThan(50);

    for (const campaignId of [ids[0], ids[49]] as string[]) {
      const single = await call('/social/get_campaign_insights', { userId, campaignId, ...range }, { apiKey });
      expect(single.body.results.rows).toEqual(read.days.get(campaignId)?.map((counts) => dailyRow(counts, 2)));
    }
  });

  it('social: a query the platform finds too big is asked again as two halves of the range, not retried as it was', async () => {
    const account = String(randomInt(1_300_000_000_000_000, 1_399_999_999_999_999));
    const ids = await seedCampaigns('social', account, 5);
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: account });
    const now = await stackNow();
    const range = { startDate: dayOf(now, -4), endDate: dayOf(now, -1) };
    const session = socialSession(await storedUser(apiKey, userId), lambdaContext);
    const whole = await socialCampaignMetrics.read(session, ids, range);
    await injectFault('social', {
      status: 500,
      body: { error: { code: 1, message: "Please reduce the amount of data you're asking for, then retry your request", is_transient: false } },
      requestIncludes: token,
      pathIncludes: '/insights',
    });
    const sliced = await socialCampaignMetrics.read(session, ids, range);
    expect(sliced.requests).toBe(3);
    expect(sliced.days).toEqual(whole.days);
    const ranges = (await upstreamRequestsWith('social', token))
      .filter((request) => request.path.endsWith('/insights'))
      .map((request) => request.query.time_range);
    expect(ranges.slice(1)).toEqual([
      JSON.stringify({ since: range.startDate, until: range.endDate }),
      JSON.stringify({ since: range.startDate, until: dayOf(now, -3) }),
      JSON.stringify({ since: dayOf(now, -2), until: range.endDate }),
    ]);
  });

  it('social: a single day still too big is read as an asynchronous report run', async () => {
    const account = String(randomInt(1_300_000_000_000_000, 1_399_999_999_999_999));
    const ids = await seedCampaigns('social', account, 5);
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: account });
    const now = await stackNow();
    const day = { startDate: dayOf(now, -1), endDate: dayOf(now, -1) };
    const session = socialSession(await storedUser(apiKey, userId), lambdaContext);
    const whole = await socialCampaignMetrics.read(session, ids, day);
    await injectFault('social', {
      status: 500,
      body: { error: { code: 1, message: "Please reduce the amount of data you're asking for, then retry your request", is_transient: false } },
      requestIncludes: token,
      pathIncludes: '/insights',
    });
    const before = (await upstreamRequestsWith('social', token)).length;
    const viaReport = await socialCampaignMetrics.read(session, ids, day);
    expect(viaReport.days).toEqual(whole.days);
    expect(viaReport.requests).toBe(5); // the refused read, the report, two looks at it, its rows
    const methods = (await upstreamRequestsWith('social', token)).slice(before).map((request) => request.method);
    expect(methods).toEqual(['GET', 'POST', 'GET', 'GET', 'GET']);
  });

  it('search ads: one searchStream over campaign.id IN (…), money from micros exactly', async () => {
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const ids = await seedCampaigns('searchads', customerId, 50);
    const refreshToken = `1//metrics-${randomBytes(6).toString('hex')}`;
    const userId = await newUser(apiKey, { searchads: { refreshToken, customerId } });
    const now = await stackNow();
    const range = { startDate: dayOf(now, -7), endDate: dayOf(now, -1) };
    const session = searchadsSession(await storedUser(apiKey, userId), lambdaContext);

    expect(await searchadsCampaignMetrics.account(session)).toEqual({ currency: 'USD', timeZone: 'America/Denver' });
    const read = await searchadsCampaignMetrics.read(session, ids, range);
    expect(read.requests).toBe(1);
    const streams = (await upstreamRequests('searchads')).filter((request) => request.path.endsWith(`/customers/${customerId}/googleAds:searchStream`));
    expect(streams).toHaveLength(1);
    expect(JSON.parse(streams[0]?.body ?? '{}').query).toBe(
      'SELECT campaign.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value ' +
        `FROM campaign WHERE campaign.id IN (${ids.join(', ')}) AND segments.date BETWEEN '${range.startDate}' AND '${range.endDate}' ORDER BY campaign.id, segments.date`,
    );
    let days = 0;
    for (const id of ids) {
      for (const counts of read.days.get(id) ?? []) {
        const platform = dailyMetrics(id, counts.date, 'SEARCH') as Record<string, any>;
        expect(counts).toEqual({
          date: counts.date,
          impressions: platform.impressions,
          clicks: platform.clicks,
          spend: new Big(platform.costMicros).div(1_000_000).toFixed(),
          conversions: String(platform.conversions),
          conversionValue: String(platform.conversionsValue),
        });
        days++;
      }
    }
    expect(days).toBeGreaterThan(250); // about one day in ten has no traffic, and has no row
  });

  it('professional: one adAnalytics call for the account, kept to the asked campaigns', async () => {
    const account = String(randomInt(610_000_000, 699_999_999));
    const token = `AQVmetrics${randomBytes(8).toString('hex')}`;
    const ids = await seedCampaigns('professional', account, 50);
    const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
    const now = await stackNow();
    const range = { startDate: dayOf(now, -7), endDate: dayOf(now, -1) };
    const session = professionalSession(await storedUser(apiKey, userId), lambdaContext);

    const read = await professionalCampaignMetrics.read(session, ids, range);
    expect(read.requests).toBe(1);
    const calls = (await upstreamRequestsWith('professional', token)).filter((request) => withoutAccountFacts(request.path));
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /rest/adAnalytics']);
    expect(calls[0]?.query).toMatchObject({ accounts: `List(urn:li:sponsoredAccount:${account})`, pivot: 'CAMPAIGN', timeGranularity: 'DAILY' });
    // the account's seeded campaigns report too; only the asked ones come back
    expect([...read.days.keys()]).toEqual(ids);
    for (const id of ids) {
      for (const counts of read.days.get(id) ?? []) {
        const platform = dailyAnalytics(id, counts.date) as Record<string, any>;
        expect(counts.impressions).toBe(String(platform.impressions));
        expect(counts.spend).toBe(platform.costInLocalCurrency);
      }
    }
    const single = await call('/professional/get_campaign_analytics', { userId, campaignId: ids[7], ...range }, { apiKey });
    expect(single.body.results.rows).toEqual(read.days.get(ids[7] as string)?.map((counts) => dailyRow(counts, 2)));
  });
});
