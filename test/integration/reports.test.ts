import Big from 'big.js';
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import type { NormalizedLead } from '../../shared/schemas/leads.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { storeLead } from '../../shared/store/lead-writes.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { injectFault, stackNow, upstreamRequests, upstreamRequestsWith, withdrawLeftoverFaults } from '../helpers/sandbox.ts';
import { newSocialUser, socialSandboxCampaign } from '../helpers/social.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * /reports/get_report against the local stack (docs/reports.md): each level and breakdown mapped to the
 * platform's own parameter and back, one platform call a page, and every level and breakdown adding up
 * to the seeded campaign figures (the sandboxes split them exactly; the platforms need not).
 */
const ACCOUNT = '1200000000000201';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});
afterEach(withdrawLeftoverFaults);

const socialCampaign = (token: string) => socialSandboxCampaign(token, ACCOUNT, { name: `Report ${randomUUID()}`, objective: 'OUTCOME_LEADS' });

const dayOf = (now: number, offset: number) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
const report = (body: Record<string, unknown>) => call('/reports/get_report', body, { apiKey });
const total = (rows: Array<Record<string, string>>, metric: string) => rows.reduce((sum, row) => sum.plus(row[metric] ?? '0'), new Big(0)).toFixed();

describe('social', () => {
  it('every level and breakdown maps to the platform’s parameters, one call a page, and adds up to the campaign’s figures', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const now = await stackNow();
    const base = { userId, platform: 'social', startDate: dayOf(now, -14), endDate: dayOf(now, -1), campaignIds: [campaignId] };
    const campaign = await report({ ...base, level: 'campaign' });
    expect(campaign.status, campaign.text).toBe(200);
    const days = campaign.body.results.rows;
    expect(days.length).toBeGreaterThan(5);
    expect(days.every((row: any) => row.campaignId === campaignId && row.date && !row.dimension)).toBe(true);
    for (const [level, id] of [
      ['ad_set', 'adSetId'],
      ['ad', 'adId'],
    ] as const) {
      const answer = (await report({ ...base, level })).body.results;
      expect(answer.level).toBe(level);
      expect(answer.rows.every((row: any) => row[id] && row.name)).toBe(true);
      for (const metric of ['impressions', 'clicks', 'spend', 'conversions'])
        expect(total(answer.rows, metric), `${level} ${metric}`).toBe(total(days, metric));
    }
    const parameters: Record<string, string> = {
      age: 'age',
      gender: 'gender',
      country: 'country',
      region: 'region',
      device: 'device_platform',
      placement: 'publisher_platform,platform_position',
    };
    for (const [breakdown, parameter] of Object.entries(parameters)) {
      const answer = (await report({ ...base, level: 'campaign', breakdown, timeIncrement: 'total' })).body.results;
      expect(answer.breakdown).toBe(breakdown);
      expect(answer.rows.every((row: any) => row.dimension?.id && row.dimension?.name && !row.date)).toBe(true);
      for (const metric of ['impressions', 'clicks', 'spend']) expect(total(answer.rows, metric), `${breakdown} ${metric}`).toBe(total(days, metric));
      expect(answer.notes).toContain('Breakdown rows need not add up to the totals.');
      const [sent] = (await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/insights')).slice(-1);
      expect(sent?.query).toMatchObject({ level: 'campaign', breakdowns: parameter, time_increment: 'all_days' });
    }
    const placement = (await report({ ...base, level: 'ad', breakdown: 'placement' })).body.results;
    expect(placement.rows.map((row: any) => row.dimension.id)).toContain('instagram|instagram_stories');
    expect(placement.rows.find((row: any) => row.dimension.id === 'instagram|instagram_stories').dimension.name).toBe('Instagram Stories');
    const countries = (await report({ ...base, level: 'campaign', breakdown: 'country', timeIncrement: 'total' })).body.results;
    expect(countries.rows.find((row: any) => row.dimension.id === 'DE').dimension.name).toBe('Germany');
  });

  it('an attribution window counts the window’s conversions and is sent as a one-element list', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const now = await stackNow();
    const base = {
      userId,
      platform: 'social',
      level: 'campaign',
      startDate: dayOf(now, -30),
      endDate: dayOf(now, -1),
      campaignIds: [campaignId],
      timeIncrement: 'total',
    };
    const plain = (await report(base)).body.results.rows[0];
    const windowed = (await report({ ...base, attributionWindow: '1d_click' })).body.results.rows[0];
    expect(Number(windowed.conversions)).toBeLessThanOrEqual(Number(plain.conversions));
    const [sent] = (await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/insights')).slice(-1);
    expect(sent?.query.action_attribution_windows).toBe('["1d_click"]');
  });
});

describe('throttling', () => {
  it('an inline page the platform keeps throttling is 429 PLATFORM_RATE_LIMITED with retryAfter', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const now = await stackNow();
    await injectFault('social', {
      pathIncludes: '/insights',
      requestIncludes: token,
      status: 400,
      times: 10,
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [ACCOUNT]: [{ type: 'ads_insights', call_count: 100, total_cputime: 40, total_time: 40, estimated_time_to_regain_access: 12 }],
        }),
      },
      body: {
        error: {
          message: 'User request limit reached',
          type: 'OAuthException',
          code: 80000,
          error_subcode: 2446079,
          is_transient: true,
          fbtrace_id: 'AThrottle',
        },
      },
    });
    const limited = await report({ userId, platform: 'social', level: 'campaign', startDate: dayOf(now, -7), endDate: dayOf(now, -1) });
    expect(limited.status, limited.text).toBe(429);
    expect(limited.body.results).toMatchObject({ code: 'PLATFORM_RATE_LIMITED' });
    expect(limited.body.results.retryAfter).toBeGreaterThan(0);
  });
});

describe('bad input: refused before any platform call', () => {
  it('a level or breakdown the platform lacks names what it offers; a window off the social platform, dates out of order, 101 campaigns', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const now = await stackNow();
    const base = { userId, startDate: dayOf(now, -7), endDate: dayOf(now, -1) };
    const level = await report({ ...base, platform: 'professional', level: 'ad_set' });
    expect(level.status).toBe(400);
    expect(level.body.results).toMatchObject({ code: 'UNSUPPORTED_LEVEL', supported: ['campaign', 'ad'] });
    const breakdown = await report({ ...base, platform: 'social', level: 'campaign', breakdown: 'job_function' });
    expect(breakdown.status).toBe(400);
    expect(breakdown.body.results).toMatchObject({ code: 'UNSUPPORTED_BREAKDOWN', supported: ['age', 'gender', 'country', 'region', 'device', 'placement'] });
    const atAd = await report({ ...base, platform: 'searchads', level: 'ad', breakdown: 'age' });
    expect(atAd.body.results).toMatchObject({ code: 'UNSUPPORTED_BREAKDOWN', supported: ['device', 'placement'] });
    const window = await report({ ...base, platform: 'searchads', level: 'campaign', attributionWindow: '7d_click' });
    expect(window.status).toBe(400);
    expect(window.body.results.details).toContainEqual({ path: 'attributionWindow', message: 'is offered on the social platform only' });
    const order = await report({ ...base, platform: 'social', level: 'campaign', startDate: dayOf(now, -1), endDate: dayOf(now, -7) });
    expect(order.status).toBe(400);
    const long = await report({ ...base, platform: 'social', level: 'campaign', startDate: '2024-01-01', endDate: '2025-06-01' });
    expect(long.status).toBe(400);
    const many = await report({ ...base, platform: 'social', level: 'campaign', campaignIds: Array.from({ length: 101 }, (_, n) => String(1000 + n)) });
    expect(many.status).toBe(400);
    const cursor = await report({ ...base, platform: 'social', level: 'campaign', pagination: 'bm90IG91cnM' });
    expect(cursor.status).toBe(400);
    expect((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/insights'))).toEqual([]);
  });
});

describe('search ads', () => {
  it('each level and breakdown is its own GAQL (views for age, gender and location), summed to the campaign, adding up to its figures', async () => {
    const customerId = String(3_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const refreshToken = `1//report-${randomUUID()}`;
    const userId = (await call('/users/create_user', { connections: { searchads: { refreshToken, customerId } } }, { apiKey })).body.results.userId;
    const now = await stackNow();
    const base = { userId, platform: 'searchads', startDate: dayOf(now, -10), endDate: dayOf(now, -1) };
    const campaign = await report({ ...base, level: 'campaign' });
    expect(campaign.status, campaign.text).toBe(200);
    const days = campaign.body.results.rows;
    expect(days.length).toBeGreaterThan(0);
    expect(campaign.body.results.currency).toMatch(/^[A-Z]{3}$/);
    const queries = async () =>
      (await upstreamRequests('searchads'))
        .filter((request) => request.path.endsWith(`customers/${customerId}/googleAds:searchStream`))
        .map((request) => JSON.parse(request.body).query as string);
    for (const [level, id, from] of [
      ['ad_set', 'adSetId', 'FROM ad_group '],
      ['ad', 'adId', 'FROM ad_group_ad '],
    ] as const) {
      const answer = (await report({ ...base, level })).body.results;
      expect(answer.rows.every((row: any) => row[id])).toBe(true);
      for (const metric of ['impressions', 'clicks', 'spend', 'conversions'])
        expect(total(answer.rows, metric), `${level} ${metric}`).toBe(total(days, metric));
      expect((await queries()).at(-1)).toContain(from);
    }
    const views: Record<string, string> = {
      age: 'FROM age_range_view',
      gender: 'FROM gender_view',
      country: 'FROM user_location_view',
      region: 'segments.geo_target_region',
      device: 'segments.device',
      placement: 'segments.ad_network_type',
    };
    for (const [breakdown, text] of Object.entries(views)) {
      const answer = (await report({ ...base, level: 'campaign', breakdown, timeIncrement: 'total' })).body.results;
      expect(answer.rows.every((row: any) => row.dimension?.id && row.dimension?.name)).toBe(true);
      for (const metric of ['impressions', 'clicks', 'spend']) expect(total(answer.rows, metric), `${breakdown} ${metric}`).toBe(total(days, metric));
      const sent = await queries();
      expect(
        sent.some((query) => query.includes(text)),
        breakdown,
      ).toBe(true);
    }
    const age = (await report({ ...base, level: 'ad_set', breakdown: 'age', timeIncrement: 'total' })).body.results;
    expect(age.rows.find((row: any) => row.dimension.id === 'AGE_RANGE_25_34').dimension.name).toBe('25-34');
    const countries = (await report({ ...base, level: 'campaign', breakdown: 'country', timeIncrement: 'total' })).body.results;
    expect(countries.rows.map((row: any) => row.dimension)).toContainEqual({ id: 'DE', name: 'Germany' });
    const regions = (await report({ ...base, level: 'campaign', breakdown: 'region', timeIncrement: 'total' })).body.results;
    expect(regions.rows.map((row: any) => row.dimension)).toEqual(
      expect.arrayContaining([
        { id: '20228', name: 'Bavaria' },
        { id: 'unknown', name: 'Unknown' },
      ]),
    );
  });
});

describe('professional', () => {
  it('campaigns and creatives in one call each; demographics per campaign, named from the standardized data, never more than the totals', async () => {
    const account = String(560_000_000 + Math.floor(Math.random() * 9_999_999));
    const accessToken = `AQVreport${randomUUID().replaceAll('-', '')}`;
    const userId = (await call('/users/create_user', { connections: { professional: { accessToken, adAccountId: account } } }, { apiKey })).body.results.userId;
    const now = await stackNow();
    const base = { userId, platform: 'professional', startDate: dayOf(now, -10), endDate: dayOf(now, -1) };
    const campaign = await report({ ...base, level: 'campaign' });
    expect(campaign.status, campaign.text).toBe(200);
    const days = campaign.body.results.rows;
    expect(days.length).toBeGreaterThan(0);
    expect(days.every((row: any) => row.name && !row.adSetId)).toBe(true);
    const analytics = async () => (await upstreamRequestsWith('professional', accessToken)).filter((request) => request.path.endsWith('/adAnalytics'));
    const ads = (await report({ ...base, level: 'ad' })).body.results;
    expect(ads.rows.every((row: any) => row.adId && row.campaignId)).toBe(true);
    for (const metric of ['impressions', 'clicks', 'spend', 'conversions']) expect(total(ads.rows, metric), metric).toBe(total(days, metric));
    expect((await analytics()).at(-1)?.query).toMatchObject({ q: 'statistics', pivots: 'List(CAMPAIGN,CREATIVE)' });
    const pivots: Record<string, [string, string, string]> = {
      country: ['MEMBER_COUNTRY_V2', 'urn:li:geo:101282230', 'Germany'],
      region: ['MEMBER_REGION_V2', 'urn:li:geo:100477049', 'Bavaria'],
      job_function: ['MEMBER_JOB_FUNCTION', 'urn:li:function:8', 'Engineering'],
      seniority: ['MEMBER_SENIORITY', 'urn:li:seniority:5', 'Manager'],
      industry: ['MEMBER_INDUSTRY', 'urn:li:industry:4', 'Software Development'],
      company_size: ['MEMBER_COMPANY_SIZE', 'urn:li:staffCountRange:(11,50)', '11–50'],
    };
    const totalImpressions = Number(total(days, 'impressions'));
    for (const [breakdown, [pivot, id, name]] of Object.entries(pivots)) {
      const before = (await analytics()).length;
      const answer = (await report({ ...base, level: 'campaign', breakdown, timeIncrement: 'total' })).body.results;
      expect(
        answer.rows.map((row: any) => row.dimension),
        breakdown,
      ).toContainEqual({ id, name });
      expect(Number(total(answer.rows, 'impressions'))).toBeLessThanOrEqual(totalImpressions);
      expect(answer.notes).toContain('One request per campaign was needed for this breakdown.');
      const made = (await analytics()).slice(before);
      const campaigns = new Set(answer.rows.map((row: any) => row.campaignId));
      // the campaigns with delivery, then one demographic call per campaign
      expect(made).toHaveLength(1 + campaigns.size);
      expect(made.slice(1).every((request) => request.query.pivot === pivot)).toBe(true);
    }
    // at ad level: one demographic call a creative (the platform's creative-level demographics are asked for one creative at a time)
    const before = (await analytics()).length;
    const byCreative = (await report({ ...base, level: 'ad', breakdown: 'seniority', timeIncrement: 'total' })).body.results;
    expect(byCreative.rows.every((row: any) => row.adId && row.dimension?.name)).toBe(true);
    const creatives = new Set(byCreative.rows.map((row: any) => row.adId));
    const made = (await analytics()).slice(before);
    expect(made).toHaveLength(1 + creatives.size);
    expect(made.slice(1).every((request) => request.query.pivot === 'MEMBER_SENIORITY' && String(request.query.creatives).startsWith('List(urn'))).toBe(true);
    expect(byCreative.notes).toContain('One request per creative was needed for this breakdown.');
  });
});

describe('outcomes and their cost', () => {
  it('a campaign’s leads’ reported outcomes appear per stage on its campaign rows, with spend / outcomes', async () => {
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const account = String(570_000_000 + Math.floor(Math.random() * 9_999_999));
    const rule = 750_000_000 + Math.floor(Math.random() * 9_999_999);
    await fetch(`${stack().sandboxes.professional}/__sandbox/conversion-rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, rules: [{ id: rule, name: 'SQL', conversionMethod: 'CONVERSIONS_API', enabled: true, type: 'SALES_QUALIFIED_LEAD' }] }),
    });
    const accessToken = `AQVoutcomes${randomUUID().replaceAll('-', '')}`;
    const userId = (await call('/users/create_user', { connections: { professional: { accessToken, adAccountId: account } } }, { apiKey })).body.results.userId;
    const set = await call(
      '/conversions/set_stages',
      { userId, crmName: 'HubSpot', stages: [{ stage: 'Qualified', professional: { conversionRuleId: String(rule) } }] },
      { apiKey },
    );
    expect(set.status, set.text).toBe(200);
    const now = await stackNow();
    const base = { userId, platform: 'professional', level: 'campaign', startDate: dayOf(now, -10), endDate: dayOf(now, -1), timeIncrement: 'total' };
    const [first] = (await report(base)).body.results.rows;
    const campaignId = first.campaignId as string;
    for (const n of [1, 2]) {
      const lead: NormalizedLead = {
        leadId: `5a1f0c2e-${randomUUID().slice(0, 8)}-${n}`,
        platform: 'professional',
        formId: '998877665544332',
        campaignId,
        createdAt: new Date(now - 3 * 86_400_000).toISOString(),
        isTest: false,
        fields: { email: `outcome${n}@example.com` },
        answers: [],
        consents: [],
      };
      expect(await storeLead(tenantId, userId, lead, undefined)).toBe(true);
      const reported = await call(
        '/leads/report_outcome',
        { userId, leadId: lead.leadId, stage: 'Qualified', occurredAt: `${dayOf(now, -2)}T10:00:00Z` },
        { apiKey },
      );
      expect(reported.status, reported.text).toBe(202);
    }
    const row = (await report({ ...base, campaignIds: [campaignId] })).body.results.rows[0];
    expect(row.outcomes).toEqual({ Qualified: 2 });
    expect(row.costPerOutcome).toEqual({ Qualified: new Big(row.spend).div(2).round(2, 2).toFixed(2) });
    // by day: on the day the outcomes happened, not the others
    const daily = (await report({ ...base, campaignIds: [campaignId], timeIncrement: 'day' })).body.results.rows;
    expect(daily.filter((entry: any) => entry.outcomes).map((entry: any) => [entry.date, entry.outcomes])).toEqual(
      daily.some((entry: any) => entry.date === dayOf(now, -2)) ? [[dayOf(now, -2), { Qualified: 2 }]] : [],
    );
  });
});

describe('exports', () => {
  const download = async (url: string) => gunzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).toString('utf8');
  const inlineRows = async (body: Record<string, unknown>) => {
    const rows: any[] = [];
    let pagination = '';
    do {
      const page = (await report({ ...body, pagination })).body.results;
      rows.push(...page.rows);
      pagination = page.paging?.next ?? '';
    } while (pagination);
    return rows;
  };
  const key = (row: any) =>
    [row.date ?? '', row.campaignId, row.adSetId ?? '', row.adId ?? '', row.dimensionId ?? row.dimension?.id ?? '', row.spend].join('|');

  it('social: an asynchronous run, its rows gzipped as csv into the bucket, the same rows as the inline report', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const now = await stackNow();
    const body = {
      userId,
      platform: 'social',
      level: 'ad',
      breakdown: 'placement',
      startDate: dayOf(now, -6),
      endDate: dayOf(now, -1),
      campaignIds: [campaignId],
    };
    const started = await call('/reports/export_report', { ...body, format: 'csv' }, { apiKey });
    expect(started.status, started.text).toBe(202);
    const { job } = await jobToEnd(apiKey, started.body.results.jobId, { timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const insights = (await upstreamRequestsWith('social', token)).filter((request) => request.path.includes('insights') || /\/\d+$/.test(request.path));
    expect(insights[0]).toMatchObject({ method: 'POST', path: `/v26.0/act_${ACCOUNT}/insights` });
    const [header, ...lines] = parse(await download(job.result.url), { relax_column_count: true }) as string[][];
    expect(header?.slice(0, 7)).toEqual(['date', 'campaignId', 'adSetId', 'adId', 'name', 'dimensionId', 'dimensionName']);
    const file = lines.map((cells) => Object.fromEntries((header as string[]).map((name, index) => [name, cells[index]])));
    expect(job.result).toMatchObject({ format: 'csv', rows: file.length });
    expect(file.map(key).sort()).toEqual((await inlineRows(body)).map(key).sort());
  });

  it('social: a run the platform no longer knows is started again once, and the export ends', async () => {
    const { userId, token } = await newSocialUser(apiKey, { adAccountId: ACCOUNT });
    const campaignId = await socialCampaign(token);
    const now = await stackNow();
    // the first read of the run's status answers as for an object that does not exist
    await injectFault('social', {
      pathIncludes: '/v26.0/60219876',
      requestIncludes: token,
      method: 'GET',
      status: 400,
      times: 1,
      body: { error: { message: 'Unsupported get request. Object with ID does not exist', type: 'GraphMethodException', code: 100, error_subcode: 33 } },
    });
    const started = await call(
      '/reports/export_report',
      { userId, platform: 'social', level: 'campaign', startDate: dayOf(now, -6), endDate: dayOf(now, -1), campaignIds: [campaignId] },
      { apiKey },
    );
    const { job } = await jobToEnd(apiKey, started.body.results.jobId, { timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const runs = (await upstreamRequestsWith('social', token)).filter((request) => request.method === 'POST' && request.path.endsWith('/insights'));
    expect(runs).toHaveLength(2);
  });

  it('search ads: jsonl, the rows of every inline page', async () => {
    const customerId = String(3_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const userId = (await call('/users/create_user', { connections: { searchads: { refreshToken: `1//export-${randomUUID()}`, customerId } } }, { apiKey }))
      .body.results.userId;
    const now = await stackNow();
    const body = { userId, platform: 'searchads', level: 'ad_set', breakdown: 'device', startDate: dayOf(now, -20), endDate: dayOf(now, -1) };
    const started = await call('/reports/export_report', { ...body, format: 'jsonl' }, { apiKey });
    expect(started.status, started.text).toBe(202);
    const { job } = await jobToEnd(apiKey, started.body.results.jobId, { timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const file = (await download(job.result.url))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(file.map(key).sort()).toEqual((await inlineRows(body)).map(key).sort());
  });
});

describe('pages', () => {
  it('a report past 5,000 rows comes in pages whose cursors go on where the last stopped, no row twice, every row once', async () => {
    const now = await stackNow();
    const demo = { social: DEMO_CONNECTIONS.social, searchads: DEMO_CONNECTIONS.searchads };
    const userId = (await call('/users/create_user', { connections: { social: demo.social, searchads: demo.searchads } }, { apiKey })).body.results.userId;
    for (const [platform, level, breakdown, days] of [
      ['social', 'ad', 'age', 30],
      ['searchads', 'ad_set', 'age', 89],
    ] as const) {
      const body = { userId, platform, level, breakdown, startDate: dayOf(now, -days), endDate: dayOf(now, -1) };
      const pages: any[] = [];
      let pagination = '';
      do {
        const page = await report({ ...body, pagination });
        expect(page.status, page.text).toBe(200);
        pages.push(page.body.results);
        pagination = page.body.results.paging?.next ?? '';
      } while (pagination && pages.length < 10);
      expect(pages.length, platform).toBeGreaterThan(1);
      expect(pages[0].rows).toHaveLength(5_000);
      const rows = pages.flatMap((page) => page.rows);
      const keys = rows.map((row: any) => [row.date, row.adSetId, row.adId, row.dimension.id].join('|'));
      expect(new Set(keys).size, platform).toBe(rows.length);
      const campaign = (await report({ userId, platform, level: 'campaign', startDate: body.startDate, endDate: body.endDate })).body.results.rows;
      expect(total(rows, 'impressions'), platform).toBe(total(campaign, 'impressions'));
    }
    // a cursor of one report does not page another
    const other = await report({
      userId,
      platform: 'social',
      level: 'ad',
      breakdown: 'gender',
      startDate: dayOf(now, -30),
      endDate: dayOf(now, -1),
      pagination: (await report({ userId, platform: 'social', level: 'ad', breakdown: 'age', startDate: dayOf(now, -30), endDate: dayOf(now, -1) })).body
        .results.paging.next,
    });
    expect(other.status).toBe(400);
  });
});
