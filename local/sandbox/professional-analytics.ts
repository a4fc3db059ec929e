import { createHash } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { ProfessionalCampaigns } from './professional-campaigns.ts';
import { creativesWeights, MEMBER_VALUES, splitElement } from './professional-report.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * `GET /rest/adAnalytics?q=analytics` on the professional sandbox (docs/platforms.md, "Professional:
 * performance"): the Rest.li query as the platform reads it (a `dateRange` structure and `List(…)`
 * of percent-encoded URNs, the structure characters themselves not encoded, months and days without
 * leading zeros), `pivot=CAMPAIGN`, `timeGranularity=DAILY`, `campaigns=` or `accounts=`, at most 20
 * fields, no paging, at most 15,000 elements (the rest cut off silently), no element for a day
 * without activity; 403 ACCESS_DENIED for a token without `r_ads_reporting`. Figures are
 * deterministic per campaign and day, so they move with the clock.
 */
type Row = Record<string, unknown>;
const MAX_FIELDS = 20;
const MAX_ELEMENTS = 15_000;
const METRICS = new Set([
  'dateRange',
  'pivotValues',
  'impressions',
  'clicks',
  'costInLocalCurrency',
  'costInUsd',
  'externalWebsiteConversions',
  'oneClickLeads',
  'conversionValueInLocalCurrency',
  'likes',
  'shares',
  'follows',
  'videoViews',
  'landingPageClicks',
  'approximateMemberReach',
]);

const error = (status: number, code: string, message: string): SandboxResponse => ({ status, body: { status, code, message } });
const noise = (seed: string) => createHash('md5').update(seed).digest().readUInt32BE(0) / 2 ** 32;

const DATE = /^\(start:\(year:(\d{4}),month:([1-9]\d?),day:([1-9]\d?)\),end:\(year:(\d{4}),month:([1-9]\d?),day:([1-9]\d?)\)\)$/;

/** A campaign's day, or nothing on a day without activity (about one in six). */
export function dailyAnalytics(campaignId: string, date: string): Row | undefined {
  const roll = noise(`li:${campaignId}:${date}`);
  if (roll < 0.17) return undefined;
  const impressions = Math.floor(800 + roll * 5_000);
  const clicks = Math.floor(impressions * (0.003 + roll * 0.012));
  const cost = (impressions * (0.012 + roll * 0.02)).toFixed(2);
  return {
    impressions,
    clicks,
    // the platform's decimal strings sometimes carry binary noise
    costInLocalCurrency: roll > 0.9 ? `${cost}00000000000335346` : cost,
    externalWebsiteConversions: roll < 0.4 ? 0 : Math.floor(clicks * 0.08 * roll),
    oneClickLeads: roll > 0.7 ? Math.floor(roll * 3) : 0,
    conversionValueInLocalCurrency: roll > 0.7 ? (roll * 120).toFixed(2) : '0',
  };
}

function listOf(raw: string, name: string): string[] | undefined {
  const encoded = new RegExp(`[?&]${name}=List\\(([^)&]*)\\)`).exec(raw)?.[1];
  if (encoded === undefined) return undefined;
  return encoded.split(',').map((item) => decodeURIComponent(item));
}

export function adAnalytics(
  request: SandboxRequest,
  world: ProfessionalCampaigns,
  seedAccount: (account: string) => void,
  canReport: boolean,
): SandboxResponse {
  const query = request.query;
  const finder = query.get('q');
  if (finder !== 'analytics' && finder !== 'statistics')
    return error(400, 'QUERY_PARAM_NOT_ALLOWED', 'This sandbox answers the analytics and statistics finders.');
  if (!canReport) return error(403, 'ACCESS_DENIED', 'Not enough permissions to access: adAnalytics.GET (r_ads_reporting is required)');
  const raw = request.rawQuery;
  const pivots = finder === 'analytics' ? [query.get('pivot') ?? ''] : (/[?&]pivots=List\(([^)&]*)\)/.exec(raw)?.[1] ?? '').split(',').filter(Boolean);
  if (finder === 'statistics' && (pivots.length === 0 || pivots.length > 3)) return error(400, 'PARAM_INVALID', 'pivots takes one to three pivots.');
  const member = pivots.find((pivot) => pivot.startsWith('MEMBER_'));
  if (member && !MEMBER_VALUES[member]) return error(400, 'PARAM_INVALID', `Unknown pivot ${member}.`);
  if (member && pivots.length > 1) return error(400, 'PARAM_INVALID', 'This sandbox answers a demographic pivot alone (q=analytics).');
  if (!member && !pivots.every((pivot) => pivot === 'CAMPAIGN' || pivot === 'CREATIVE'))
    return error(400, 'PARAM_INVALID', 'pivot must be CAMPAIGN, CREATIVE or a MEMBER_ pivot here.');
  const granularity = query.get('timeGranularity');
  if (granularity !== 'DAILY' && granularity !== 'ALL') return error(400, 'PARAM_INVALID', 'timeGranularity must be DAILY or ALL here.');
  // the structure characters go as they are; only the URNs inside List(…) are percent-encoded
  if (/dateRange=%28|List%28|%2C/i.test(raw)) return error(400, 'PARAM_INVALID', 'The Rest.li structure characters ( ) , : must not be percent-encoded.');
  if (/List\([^)]*urn:li:/.test(raw)) return error(400, 'PARAM_INVALID', 'URNs inside List(…) must be percent-encoded.');
  const range = DATE.exec(query.get('dateRange') ?? '');
  if (!range) return error(400, 'PARAM_INVALID', 'dateRange must be (start:(year:Y,month:M,day:D),end:(year:Y,month:M,day:D)) without leading zeros.');
  const day = (year: string, month: string, date: string) => `${year}-${month.padStart(2, '0')}-${date.padStart(2, '0')}`;
  const [start, end] = [day(range[1] as string, range[2] as string, range[3] as string), day(range[4] as string, range[5] as string, range[6] as string)];
  if (start > end) return error(400, 'PARAM_INVALID', 'dateRange.start is after dateRange.end.');
  const fields = (query.get('fields') ?? '').split(',').filter(Boolean);
  if (fields.length > MAX_FIELDS) return error(400, 'PARAM_INVALID', `At most ${MAX_FIELDS} fields may be requested.`);
  const unknown = fields.find((field) => !METRICS.has(field));
  if (unknown) return error(400, 'PARAM_INVALID', `Unknown field ${unknown}.`);
  const campaignUrns = listOf(raw, 'campaigns');
  const accountUrns = listOf(raw, 'accounts');
  const creativeUrns = listOf(raw, 'creatives');
  if (!campaignUrns && !accountUrns && !creativeUrns)
    return error(400, 'PARAM_INVALID', 'campaigns=List(…), creatives=List(…) or accounts=List(…) is required.');
  const campaignIds = new Set<string>();
  for (const urn of campaignUrns ?? []) campaignIds.add(urn.replace('urn:li:sponsoredCampaign:', ''));
  for (const urn of accountUrns ?? []) {
    const account = urn.replace('urn:li:sponsoredAccount:', '');
    seedAccount(account);
    for (const key of world.campaigns.keys()) if (key.startsWith(`${account}/`)) campaignIds.add(key.split('/')[1] as string);
  }
  const wantedCreatives = new Set((creativeUrns ?? []).map((urn) => urn.replace('urn:li:sponsoredCreative:', '')));
  for (const creative of wantedCreatives) campaignIds.add(campaignOfCreative(world, creative));
  const byCreative = pivots.includes('CREATIVE') || wantedCreatives.size > 0;
  const dates: string[] = [];
  const today = clock.today(0);
  for (let time = Date.parse(`${start}T00:00:00Z`); time <= Date.parse(`${end}T00:00:00Z`); time += 86_400_000) {
    const date = new Date(time).toISOString().slice(0, 10);
    if (date > today) break;
    dates.push(date);
  }
  const periods = granularity === 'DAILY' ? dates.map((date) => ({ from: date, to: date, dates: [date] })) : [{ from: start, to: end, dates }];
  const elements: Row[] = [];
  for (const period of periods) {
    for (const id of [...campaignIds].sort()) {
      const days = period.dates.map((date) => dailyAnalytics(id, date)).filter((metrics): metrics is Row => metrics !== undefined);
      if (days.length === 0) continue;
      const metrics = granularity === 'DAILY' ? (days[0] as Row) : sumDays(days);
      const creatives = creativesOf(world, id);
      const entities = byCreative
        ? splitElement(metrics, creativesWeights(creatives.length)).map((part, index) => ({ part, creative: creatives[index] as string }))
        : [{ part: metrics, creative: undefined }];
      for (const { part, creative } of entities) {
        if (wantedCreatives.size > 0 && (!creative || !wantedCreatives.has(creative))) continue;
        const values = member ? (MEMBER_VALUES[member] as Array<[string, number]>) : undefined;
        const parts = values
          ? splitElement(
              part,
              values.map(([, weight]) => weight),
            )
          : [part];
        for (const [index, figures] of parts.entries()) {
          // as on the platform: a demographic value with fewer than 3 events is left out
          if (values && Number(figures.impressions) < 3) continue;
          const pivotValues = member
            ? [values?.[index]?.[0] as string]
            : pivots.map((pivot) => (pivot === 'CREATIVE' ? `urn:li:sponsoredCreative:${creative}` : `urn:li:sponsoredCampaign:${id}`));
          const element: Row = {};
          if (fields.includes('pivotValues')) element.pivotValues = pivotValues;
          if (fields.includes('dateRange')) element.dateRange = { start: restliDay(period.from), end: restliDay(period.to) };
          for (const field of fields) if (field in figures) element[field] = figures[field];
          elements.push(element);
        }
      }
    }
  }
  return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: elements.slice(0, MAX_ELEMENTS) } };
}

const restliDay = (date: string) => {
  const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day: dayOfMonth };
};

function sumDays(days: Row[]): Row {
  const sum = (name: string) => days.reduce((all, metrics) => all + Number(metrics[name] ?? 0), 0);
  return {
    impressions: sum('impressions'),
    clicks: sum('clicks'),
    costInLocalCurrency: sum('costInLocalCurrency').toFixed(2),
    externalWebsiteConversions: sum('externalWebsiteConversions'),
    oneClickLeads: sum('oneClickLeads'),
    conversionValueInLocalCurrency: sum('conversionValueInLocalCurrency').toFixed(2),
  };
}

/** A campaign's creatives: those a launch made, else two of its own (its id with a digit more). */
function creativesOf(world: ProfessionalCampaigns, campaignId: string): string[] {
  const urn = `urn:li:sponsoredCampaign:${campaignId}`;
  const made = [...world.creatives.values()].filter((row) => row.campaign === urn).map((row) => String(row.id).replace('urn:li:sponsoredCreative:', ''));
  return made.length > 0 ? made : [`${campaignId}1`, `${campaignId}2`];
}

function campaignOfCreative(world: ProfessionalCampaigns, creativeId: string): string {
  const made = [...world.creatives.values()].find((row) => row.id === `urn:li:sponsoredCreative:${creativeId}`);
  return made ? String(made.campaign).replace('urn:li:sponsoredCampaign:', '') : creativeId.slice(0, -1);
}
