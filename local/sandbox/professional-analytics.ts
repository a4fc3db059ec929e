import { createHash } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { ProfessionalCampaigns } from './professional-campaigns.ts';
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
  if (query.get('q') !== 'analytics') return error(400, 'QUERY_PARAM_NOT_ALLOWED', 'This sandbox answers the analytics finder (q=analytics).');
  if (!canReport) return error(403, 'ACCESS_DENIED', 'Not enough permissions to access: adAnalytics.GET (r_ads_reporting is required)');
  if (query.get('pivot') !== 'CAMPAIGN') return error(400, 'PARAM_INVALID', 'pivot must be CAMPAIGN here.');
  if (query.get('timeGranularity') !== 'DAILY') return error(400, 'PARAM_INVALID', 'timeGranularity must be DAILY here.');
  const raw = request.rawQuery;
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
  if (!campaignUrns && !accountUrns) return error(400, 'PARAM_INVALID', 'campaigns=List(…) or accounts=List(…) is required.');
  const campaignIds = new Set<string>();
  for (const urn of campaignUrns ?? []) campaignIds.add(urn.replace('urn:li:sponsoredCampaign:', ''));
  for (const urn of accountUrns ?? []) {
    const account = urn.replace('urn:li:sponsoredAccount:', '');
    seedAccount(account);
    for (const key of world.campaigns.keys()) if (key.startsWith(`${account}/`)) campaignIds.add(key.split('/')[1] as string);
  }
  const elements: Row[] = [];
  const today = clock.today(0);
  for (let time = Date.parse(`${start}T00:00:00Z`); time <= Date.parse(`${end}T00:00:00Z`); time += 86_400_000) {
    const date = new Date(time).toISOString().slice(0, 10);
    if (date > today) break;
    const [year, month, dayOfMonth] = date.split('-').map(Number) as [number, number, number];
    for (const id of [...campaignIds].sort()) {
      const metrics = dailyAnalytics(id, date);
      if (!metrics) continue;
      const element: Row = {};
      if (fields.includes('pivotValues')) element.pivotValues = [`urn:li:sponsoredCampaign:${id}`];
      if (fields.includes('dateRange')) element.dateRange = { start: { year, month, day: dayOfMonth }, end: { year, month, day: dayOfMonth } };
      for (const field of fields) if (field in metrics) element[field] = metrics[field];
      elements.push(element);
    }
  }
  return { status: 200, body: { paging: { start: 0, count: 10, links: [] }, elements: elements.slice(0, MAX_ELEMENTS) } };
}
