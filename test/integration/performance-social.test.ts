import Big from 'big.js';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { injectFault, stackNow, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { dailyInsight } from '../../local/sandbox/social-campaigns.ts';
import { expectedProof, newSocialUser, socialSandboxCampaign } from '../helpers/social.ts';

/**
 * get_campaign_insights through the gateway against the social sandbox: one insights read per
 * request, rows mapped field by field from what the platform answered, no day invented, dates checked
 * before any call.
 */
const ACCOUNT = '1200000000000201';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const campaignIn = (token: string) => socialSandboxCampaign(token, ACCOUNT, { name: `Insights ${randomUUID()}` });

const dayOf = (now: number, offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);

describe('social get_campaign_insights', () => {
  it('maps each day the platform reports, derives the ratios from the counts, and reads once', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const now = await stackNow();
    const [startDate, endDate] = [dayOf(now, -30), dayOf(now, -1)];
    // a campaign with a day without delivery in the range (about one in 200 has none: the sandbox's roll per day)
    let campaignId = await campaignIn(token);
    const quiet = (id: string) =>
      Array.from({ length: 30 }, (_, day) => dailyInsight({ id, status: 'ACTIVE' }, ACCOUNT, 'USD', dayOf(now, day - 30)) === undefined);
    for (let tries = 0; tries < 5 && !quiet(campaignId).some(Boolean); tries++) campaignId = await campaignIn(token);
    const response = await call('/social/get_campaign_insights', { userId, campaignId, startDate, endDate }, { apiKey });
    expect(response.status, response.text).toBe(200);
    const { results } = response.body;
    expect(results).toMatchObject({ success: true, campaignId, currency: 'USD' });

    const requests = (await upstreamRequestsWith('social', token)).filter((request) => !request.path.endsWith('/campaigns'));
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v26.0/${campaignId}/insights`]);
    expect(requests[0]?.query).toMatchObject({ time_increment: '1', time_range: JSON.stringify({ since: startDate, until: endDate }) });

    // what the platform answered, read back from the sandbox with the same query
    const raw = (await (
      await fetch(
        `${stack().sandboxes.social}/v26.0/${campaignId}/insights?${new URLSearchParams({ ...requests[0]?.query, access_token: token, appsecret_proof: expectedProof(token) })}`,
      )
    ).json()) as { data: Array<Record<string, any>> };
    expect(results.rows).toHaveLength(raw.data.length);
    expect(raw.data.length).toBeGreaterThan(15);
    expect(raw.data.length).toBeLessThan(30); // days without delivery have no row, and none is invented
    for (const [index, row] of results.rows.entries()) {
      const platform = raw.data[index] as Record<string, any>;
      const counted = (list: Array<{ action_type: string; value: string }> = []) =>
        list
          .filter((action) => ['lead', 'purchase', 'complete_registration'].includes(action.action_type))
          .reduce((total, action) => total.plus(action.value), new Big(0));
      const spend = new Big(platform.spend);
      const conversions = counted(platform.actions);
      expect(row).toEqual({
        date: platform.date_start,
        impressions: platform.impressions,
        clicks: platform.clicks,
        spend: spend.toFixed(2),
        ctr: new Big(platform.clicks).div(platform.impressions).round(6, 2).toFixed(6),
        ...(Number(platform.clicks) > 0 ? { cpc: spend.div(platform.clicks).round(2, 2).toFixed(2) } : {}),
        cpm: spend.times(1000).div(platform.impressions).round(2, 2).toFixed(2),
        conversions: conversions.toFixed(),
        conversionValue: counted(platform.action_values).toFixed(2),
        ...(conversions.gt(0) ? { costPerConversion: spend.div(conversions).round(2, 2).toFixed(2) } : {}),
        reach: platform.reach,
      });
    }
    expect(results.rows.map((row: { date: string }) => row.date)).toEqual([...results.rows.map((row: { date: string }) => row.date)].sort());
  });

  it('clientCostAdjustment scales every cost figure, never the conversion value', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await campaignIn(token);
    const now = await stackNow();
    const range = { startDate: dayOf(now, -14), endDate: dayOf(now, -1) };
    const plain = (await call('/social/get_campaign_insights', { userId, campaignId, ...range }, { apiKey })).body.results.rows;
    const adjusted = (await call('/social/get_campaign_insights', { userId, campaignId, ...range, clientCostAdjustment: { percentage: 10 } }, { apiKey })).body
      .results.rows;
    for (const [index, row] of adjusted.entries()) {
      const base = plain[index];
      expect(row.spend).toBe(new Big(base.spend).times('1.1').round(2, 2).toFixed(2));
      expect(row.conversionValue).toBe(base.conversionValue);
      expect(row.impressions).toBe(base.impressions);
    }
  });

  it('dates are checked before any call; an unknown campaign is CAMPAIGN_NOT_FOUND; an expired token as everywhere', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const reversed = await call(
      '/social/get_campaign_insights',
      { userId, campaignId: '1', startDate: clock.today(-23), endDate: clock.today(-30) },
      { apiKey },
    );
    expect(reversed.status).toBe(400);
    const long = await call('/social/get_campaign_insights', { userId, campaignId: '1', startDate: clock.today(-400), endDate: clock.today(-30) }, { apiKey });
    expect(long.body.results.details).toEqual([{ path: 'endDate', message: 'the range may cover at most 366 days' }]);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
    const unknown = await call(
      '/social/get_campaign_insights',
      { userId, campaignId: '120219999999999999', startDate: clock.today(-3), endDate: clock.today(-1) },
      { apiKey },
    );
    expect(unknown.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } },
    });
    const expired = await call('/social/get_campaign_insights', { userId, campaignId: '1', startDate: clock.today(-3), endDate: clock.today(-1) }, { apiKey });
    expect(expired.body.results).toMatchObject({ success: false, code: 'PLATFORM_AUTH_EXPIRED' });
  });

  it('a range the platform finds too big comes from an asynchronous report run: the same rows', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await campaignIn(token);
    const now = await stackNow();
    const range = { startDate: dayOf(now, -20), endDate: dayOf(now, -1) };
    const sync = await call('/social/get_campaign_insights', { userId, campaignId, ...range }, { apiKey });
    const before = (await upstreamRequestsWith('social', token)).length;
    await injectFault('social', {
      requestIncludes: token,
      pathIncludes: `${campaignId}/insights`,
      status: 500,
      body: { error: { code: 1, message: "Please reduce the amount of data you're asking for, then retry your request", is_transient: false } },
    });
    const viaReport = await call('/social/get_campaign_insights', { userId, campaignId, ...range }, { apiKey });
    expect(viaReport.status, viaReport.text).toBe(200);
    expect(viaReport.body.results.rows).toEqual(sync.body.results.rows);
    const requests = (await upstreamRequestsWith('social', token)).slice(before);
    const run = /^\/v26\.0\/(\d+)$/.exec(requests[2]?.path ?? '')?.[1];
    // the refused read once (not retried as it was), the report, two looks at it, its rows
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v26.0/${campaignId}/insights`,
      `POST /v26.0/${campaignId}/insights`,
      `GET /v26.0/${run}`,
      `GET /v26.0/${run}`,
      `GET /v26.0/${run}/insights`,
    ]);
    expect(JSON.parse(requests[1]?.body ?? '{}')).toMatchObject({
      time_increment: 1,
      time_range: JSON.stringify({ since: range.startDate, until: range.endDate }),
    });

    // a report run that fails is the platform's refusal, with its code
    await injectFault('social', {
      requestIncludes: token,
      pathIncludes: `${campaignId}/insights`,
      status: 500,
      body: { error: { code: 1, message: "Please reduce the amount of data you're asking for" } },
    });
    await injectFault('social', {
      requestIncludes: token,
      pathIncludes: '/v26.0/60219876',
      status: 200,
      body: {
        id: '6021987699999999',
        async_status: 'Job Failed',
        async_percent_completion: 0,
        error_code: -2,
        error_subcode: 2490547,
        error_user_msg: 'Generating the report failed. Try again later.',
      },
    });
    const failed = await call('/social/get_campaign_insights', { userId, campaignId, ...range }, { apiKey });
    expect(failed.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED', platformCode: -2, platformSubcode: 2490547 });
  });
});
