import Big from 'big.js';
import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { dailyAnalytics } from '../../local/sandbox/professional-analytics.ts';
import { clock } from '../../shared/core/clock.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { saveConnectionHealth } from '../../shared/store/user-writes.ts';
import { findUser } from '../../shared/store/users.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { stackNow, upstreamRequestsWith } from '../helpers/sandbox.ts';

/**
 * get_campaign_analytics through the gateway against the professional sandbox: one adAnalytics call
 * with the exact Rest.li query, rows mapped field by field, no day invented, SCOPE_MISSING without
 * the reporting permission.
 */
const CAMPAIGN = '600000101';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

async function professionalUser(tokenTag = '') {
  const token = `AQVanalytics${tokenTag}${randomBytes(8).toString('hex')}`;
  const account = String(randomInt(510_000_000, 599_999_999));
  const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
  return { userId, token, account };
}

const dayOf = (now: number, offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);

describe('professional get_campaign_analytics', () => {
  it('maps each day the platform reports from one adAnalytics call with the exact Rest.li query', async () => {
    const { userId, token, account } = await professionalUser();
    const now = await stackNow();
    const [startDate, endDate] = [dayOf(now, -20), dayOf(now, -1)];
    const first = await call('/professional/get_campaign_analytics', { userId, campaignId: CAMPAIGN, startDate, endDate }, { apiKey });
    expect(first.status, first.text).toBe(200);
    const calls = await upstreamRequestsWith('professional', token);
    // the campaign is read first (it must be the connected account's), then its analytics and the account's currency
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /rest/adAccounts/${account}/adCampaigns/${CAMPAIGN}`,
      'GET /rest/adAnalytics',
      `GET /rest/adAccounts/${account}`,
    ]);
    const [start, end] = [startDate, endDate].map((date) => {
      const [year, month, day] = date.split('-').map(Number);
      return `(year:${year},month:${month},day:${day})`;
    });
    expect(calls[1]?.query).toEqual({
      q: 'analytics',
      pivot: 'CAMPAIGN',
      timeGranularity: 'DAILY',
      dateRange: `(start:${start},end:${end})`,
      campaigns: `List(urn:li:sponsoredCampaign:${CAMPAIGN})`,
      fields: 'dateRange,pivotValues,impressions,clicks,costInLocalCurrency,externalWebsiteConversions,oneClickLeads,conversionValueInLocalCurrency',
    });
    // the account's currency is read once a container: the next request is the campaign and the analytics
    await call('/professional/get_campaign_analytics', { userId, campaignId: CAMPAIGN, startDate, endDate }, { apiKey });
    expect((await upstreamRequestsWith('professional', token)).slice(3).map((request) => request.path)).toEqual([
      `/rest/adAccounts/${account}/adCampaigns/${CAMPAIGN}`,
      '/rest/adAnalytics',
    ]);

    const { results } = first.body;
    expect(results).toMatchObject({ success: true, campaignId: CAMPAIGN, currency: 'USD' });
    const expected = [];
    for (let offset = -20; offset <= -1; offset++) {
      const date = dayOf(now, offset);
      const metrics = dailyAnalytics(CAMPAIGN, date) as Record<string, any> | undefined;
      if (!metrics) continue;
      const spend = new Big(metrics.costInLocalCurrency);
      const conversions = new Big(metrics.externalWebsiteConversions).plus(metrics.oneClickLeads);
      expected.push({
        date,
        impressions: String(metrics.impressions),
        clicks: String(metrics.clicks),
        spend: spend.round(2, 2).toFixed(2),
        ctr: new Big(metrics.clicks).div(metrics.impressions).round(6, 2).toFixed(6),
        ...(metrics.clicks > 0 ? { cpc: spend.div(metrics.clicks).round(2, 2).toFixed(2) } : {}),
        cpm: spend.times(1000).div(metrics.impressions).round(2, 2).toFixed(2),
        conversions: conversions.toFixed(),
        conversionValue: new Big(metrics.conversionValueInLocalCurrency).toFixed(2),
        ...(conversions.gt(0) ? { costPerConversion: spend.div(conversions).round(2, 2).toFixed(2) } : {}),
      });
    }
    expect(expected.length).toBeLessThan(20); // days without activity have no row
    expect(results.rows).toEqual(expected);
  });

  it('a connection without the reporting permission: SCOPE_MISSING, from what it was granted or from the platform’s 403', async () => {
    const refused = await professionalUser('NOREPORTING');
    const answer = await call(
      '/professional/get_campaign_analytics',
      { userId: refused.userId, campaignId: CAMPAIGN, startDate: clock.today(-30), endDate: clock.today(-29) },
      { apiKey },
    );
    expect(answer.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'r_ads_reporting' });

    const granted = await professionalUser();
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const user = await findUser(tenantId, granted.userId);
    await saveConnectionHealth(user as NonNullable<typeof user>, 'professional', { scopes: 'r_ads rw_ads rw_dmp_segments' });
    const known = await call(
      '/professional/get_campaign_analytics',
      { userId: granted.userId, campaignId: CAMPAIGN, startDate: clock.today(-30), endDate: clock.today(-29) },
      { apiKey },
    );
    expect(known.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING' });
    expect(known.body.results.error).toContain('/auth/create_link');
    expect(await upstreamRequestsWith('professional', granted.token)).toEqual([]);
  });

  it('dates are checked before any call; an expired token as everywhere', async () => {
    const { userId, token } = await professionalUser();
    const reversed = await call(
      '/professional/get_campaign_analytics',
      { userId, campaignId: CAMPAIGN, startDate: clock.today(-23), endDate: clock.today(-30) },
      { apiKey },
    );
    expect(reversed.status).toBe(400);
    expect(await upstreamRequestsWith('professional', token)).toEqual([]);
    const expiredUser = await newUser(apiKey, { professional: { accessToken: `AQVEXPIRED${randomBytes(6).toString('hex')}`, adAccountId: '500000001' } });
    const expired = await call(
      '/professional/get_campaign_analytics',
      { userId: expiredUser, campaignId: CAMPAIGN, startDate: clock.today(-30), endDate: clock.today(-29) },
      { apiKey },
    );
    expect(expired.body.results).toMatchObject({ success: false, code: 'PLATFORM_AUTH_EXPIRED' });
  });
});
