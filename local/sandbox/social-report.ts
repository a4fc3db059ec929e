import { clock } from '../../shared/core/clock.ts';
import { childWeights, splitCount, splitMoney } from './report-splits.ts';
import type { SandboxResponse } from './server.ts';
import { accountOf, type CampaignWorld, dailyInsight, daysBetween } from './social-campaigns.ts';
import type { Row } from './social-data.ts';
import { type GraphCall, graphError, page } from './social-graph.ts';

/**
 * The social sandbox's insights by level and breakdown (docs/reports.md): `GET act_{id}/insights` with
 * `level=campaign|adset|ad`, `breakdowns`, `time_increment=1|all_days`, `action_attribution_windows`
 * and `filtering` on campaign ids, answered from the seeded daily figures of each campaign: a campaign's
 * ad sets (those a launch made, else two of its own) and their ads share its figures, and a breakdown's
 * values share each row's, every part adding up to the whole. As the platform: `platform_position`
 * without `publisher_platform` is refused (code 100); `region` rows carry no website conversions;
 * reach is left out of breakdown rows older than 13 months; `7d_view` and `28d_view` give no keys.
 */
export const BREAKDOWN_VALUES: Record<string, Array<{ values: Record<string, string>; weight: number }>> = {
  age: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'].map((age, index) => ({ values: { age }, weight: [2, 4, 3, 2, 1, 1][index] as number })),
  gender: [
    { values: { gender: 'female' }, weight: 5 },
    { values: { gender: 'male' }, weight: 4 },
    { values: { gender: 'unknown' }, weight: 1 },
  ],
  country: [
    { values: { country: 'DE' }, weight: 5 },
    { values: { country: 'FR' }, weight: 3 },
    { values: { country: 'US' }, weight: 2 },
  ],
  region: [
    { values: { region: 'Bavaria' }, weight: 4 },
    { values: { region: 'Berlin' }, weight: 3 },
    { values: { region: 'Unknown' }, weight: 1 },
  ],
  device_platform: [
    { values: { device_platform: 'mobile_app' }, weight: 6 },
    { values: { device_platform: 'mobile_web' }, weight: 2 },
    { values: { device_platform: 'desktop' }, weight: 2 },
  ],
  'publisher_platform,platform_position': [
    { values: { publisher_platform: 'facebook', platform_position: 'feed' }, weight: 5 },
    { values: { publisher_platform: 'instagram', platform_position: 'instagram_stories' }, weight: 3 },
    { values: { publisher_platform: 'instagram', platform_position: 'instagram_reels' }, weight: 2 },
    { values: { publisher_platform: 'audience_network', platform_position: 'an_classic' }, weight: 1 },
  ],
};

const REPORT_FIELDS = new Set([
  'account_id',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'date_start',
  'date_stop',
  'impressions',
  'clicks',
  'spend',
  'reach',
  'ctr',
  'cpc',
  'cpm',
  'actions',
  'action_values',
]);
const WINDOW_SHARE: Record<string, number> = { '1d_click': 0.6, '7d_click': 1, '28d_click': 1.2, '1d_view': 0.25 };

type Action = { action_type: string; value: string; [window: string]: string };

/** One entity's figures of a day (or of the range), split into `weights` parts. */
function splitRow(row: Row, weights: readonly number[], decimals: number): Row[] {
  const counts = (name: string) => splitCount(Number(row[name] ?? 0), weights);
  const impressions = counts('impressions');
  const clicks = counts('clicks');
  const reach = counts('reach');
  const spend = splitMoney(String(row.spend ?? '0'), weights, decimals);
  const actions = ((row.actions as Action[] | undefined) ?? []).map((action) => ({
    type: action.action_type,
    parts: splitCount(Number(action.value), weights),
  }));
  const values = ((row.action_values as Action[] | undefined) ?? []).map((action) => ({
    type: action.action_type,
    parts: splitMoney(action.value, weights, 2),
  }));
  return weights.map((_, index) => ({
    ...row,
    impressions: String(impressions[index]),
    clicks: String(clicks[index]),
    reach: String(reach[index]),
    spend: spend[index],
    actions: actions.map((action) => ({ action_type: action.type, value: String(action.parts[index]) })).filter((action) => action.value !== '0'),
    action_values: values.map((action) => ({ action_type: action.type, value: action.parts[index] })).filter((action) => Number(action.value) > 0),
  }));
}

/** The campaign's ad sets: those a launch made under it, else two of its own (ids the campaign's with a digit more). */
function adSetsOf(world: CampaignWorld, campaign: Row): Row[] {
  const launched = [...world.objects.values()].filter((object) => object.kind === 'adset' && object.campaign_id === campaign.id && object.status !== 'DELETED');
  if (launched.length > 0) return launched.map((object) => ({ id: object.id, name: object.name }));
  return [1, 2].map((n) => ({ id: `${String(campaign.id)}${n}`, name: `${String(campaign.name)} · ad set ${n}` }));
}

function adsOf(world: CampaignWorld, adSet: Row): Row[] {
  const launched = [...world.objects.values()].filter((object) => object.kind === 'ad' && object.adset_id === adSet.id && object.status !== 'DELETED');
  if (launched.length > 0) return launched.map((object) => ({ id: object.id, name: object.name }));
  return [1, 2].map((n) => ({ id: `${String(adSet.id)}${n}`, name: `${String(adSet.name)} · ad ${n}` }));
}

/** Sums an entity's daily rows into one for the range (all_days). */
function total(rows: Row[], since: string, until: string): Row | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const sum = (name: string) => rows.reduce((all, row) => all + Number(row[name] ?? 0), 0);
  const actions = new Map<string, number>();
  const values = new Map<string, number>();
  for (const row of rows) {
    for (const action of (row.actions as Action[] | undefined) ?? [])
      actions.set(action.action_type, (actions.get(action.action_type) ?? 0) + Number(action.value));
    for (const action of (row.action_values as Action[] | undefined) ?? [])
      values.set(action.action_type, (values.get(action.action_type) ?? 0) + Number(action.value));
  }
  const decimals = String(first.spend).includes('.') ? 2 : 0;
  return {
    ...first,
    date_start: since,
    date_stop: until,
    impressions: String(sum('impressions')),
    clicks: String(sum('clicks')),
    reach: String(sum('reach')),
    spend: sum('spend').toFixed(decimals),
    actions: [...actions].map(([type, value]) => ({ action_type: type, value: String(value) })),
    action_values: [...values].map(([type, value]) => ({ action_type: type, value: value.toFixed(2) })),
  };
}

export function reportInsights(call: GraphCall, world: CampaignWorld, campaigns: Row[], account: string, path: string): SandboxResponse {
  const made = reportRows(call, world, campaigns, account);
  return 'rows' in made ? page(call, path, made.rows, made.fields, 25, 5_000) : made;
}

/** The report's rows and the fields to show of them, or the platform's refusal. */
export function reportRows(call: GraphCall, world: CampaignWorld, campaigns: Row[], account: string): { rows: Row[]; fields: string[] } | SandboxResponse {
  const params = call.params;
  const level = String(params.level ?? 'campaign');
  if (!['campaign', 'adset', 'ad'].includes(level)) return graphError(100, '(#100) level must be one of account, campaign, adset, ad');
  const fields = String(params.fields ?? 'impressions,spend')
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  const unknown = fields.find((field) => !REPORT_FIELDS.has(field));
  if (unknown) return graphError(100, `(#100) ${unknown} is not valid for fields param.`);
  const breakdowns = params.breakdowns === undefined ? '' : String(params.breakdowns);
  if (breakdowns === 'platform_position') return graphError(100, '(#100) platform_position must be requested together with publisher_platform');
  const values = breakdowns ? BREAKDOWN_VALUES[breakdowns] : undefined;
  if (breakdowns && !values) return graphError(100, `(#100) ${breakdowns} is not a valid breakdown for this sandbox`);
  let range: { since?: string; until?: string };
  let windows: string[] = [];
  try {
    range = JSON.parse(String(params.time_range ?? '{}')) as { since?: string; until?: string };
    if (params.action_attribution_windows !== undefined) windows = JSON.parse(String(params.action_attribution_windows)) as string[];
  } catch {
    return graphError(100, '(#100) time_range and action_attribution_windows must be JSON');
  }
  const { since, until } = range;
  if (!since || !until || since > until) return graphError(100, '(#100) Param time_range must be a JSON object with since and until');
  if (Date.parse(since) < clock.now() - 37 * 30.5 * 86_400_000)
    return graphError(3018, 'The start date of the time range cannot be beyond 37 months from the current date');
  const byDay = String(params.time_increment ?? '1') !== 'all_days';
  const { currency } = accountOf(world, account);
  const decimals = currency === 'JPY' || currency === 'HUF' || currency === 'KRW' ? 0 : 2;
  const oldForReach = Date.parse(since) < clock.now() - 13 * 30.5 * 86_400_000;
  const rows: Row[] = [];
  for (const campaign of campaigns) {
    const days = daysBetween(since, until, clock.today(0))
      .map((date) => dailyInsight(campaign, account, currency, date))
      .filter((row): row is Row => row !== undefined);
    const entities: Array<{ ids: Row; days: Row[] }> = [];
    if (level === 'campaign') entities.push({ ids: {}, days });
    else {
      const adSets = adSetsOf(world, campaign);
      const adSetDays = days.map((day) => splitRow(day, childWeights(adSets.length), decimals));
      for (const [setIndex, adSet] of adSets.entries()) {
        const own = adSetDays.map((parts) => parts[setIndex] as Row);
        const setIds = { adset_id: adSet.id, adset_name: adSet.name };
        if (level === 'adset') entities.push({ ids: setIds, days: own });
        else {
          const ads = adsOf(world, adSet);
          const adDays = own.map((day) => splitRow(day, childWeights(ads.length), decimals));
          for (const [adIndex, ad] of ads.entries())
            entities.push({ ids: { ...setIds, ad_id: ad.id, ad_name: ad.name }, days: adDays.map((parts) => parts[adIndex] as Row) });
        }
      }
    }
    for (const entity of entities) {
      const periods = byDay ? entity.days : [total(entity.days, since, until)].filter((row): row is Row => row !== undefined);
      for (const period of periods) {
        const parts = values
          ? splitRow(
              period,
              values.map((value) => value.weight),
              decimals,
            )
          : [period];
        for (const [index, part] of parts.entries()) {
          const row: Row = { ...part, ...entity.ids, ...(values ? values[index]?.values : {}) };
          if (breakdowns === 'region') row.actions = (row.actions as Action[]).filter((action) => !action.action_type.startsWith('offsite_conversion.'));
          if (breakdowns && oldForReach) delete row.reach;
          for (const action of [...((row.actions as Action[]) ?? []), ...((row.action_values as Action[]) ?? [])])
            for (const window of windows)
              if (WINDOW_SHARE[window] !== undefined)
                action[window] = action.value.includes('.')
                  ? (Number(action.value) * (WINDOW_SHARE[window] as number)).toFixed(2)
                  : String(Math.floor(Number(action.value) * (WINDOW_SHARE[window] as number)));
          if (!(row.actions as Action[]).length) delete row.actions;
          if (!(row.action_values as Action[]).length) delete row.action_values;
          rows.push(row);
        }
      }
    }
  }
  return { rows, fields: [...fields, ...(breakdowns ? breakdowns.split(',') : [])] };
}
