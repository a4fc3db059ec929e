import { clock } from '../../shared/core/clock.ts';
import type { SandboxResponse } from './server.ts';
import { accountOf, type CampaignWorld, dailyInsight, daysBetween, findCampaign } from './social-campaigns.ts';
import type { Row } from './social-data.ts';
import { reportInsights, reportRows } from './social-report.ts';
import { graphError, unknownObject, type GraphCall, page, type GraphHandler } from './social-graph.ts';

/** The social sandbox's insights: per campaign and per account, synchronous or as report runs. */

export interface ReportRun {
  rows: Row[];
  fields: string[];
  polls: number;
  account: string;
  range: { since?: string; until?: string };
}

export const INSIGHT_FIELDS = [
  'account_id',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'date_start',
  'date_stop',
  'impressions',
  'clicks',
  'spend',
  'reach',
  'frequency',
  'ctr',
  'cpc',
  'cpm',
  'actions',
  'action_values',
];
/** rows one synchronous insights answer computes at most: beyond, the platform asks for less (code 1) */
export const MAX_SYNC_INSIGHT_ROWS = 2_000;

/** Insights of one campaign (`/{campaign}/insights`) or of an account's campaigns (`act_{id}/insights?level=campaign`). */
export function insights(
  call: GraphCall,
  state: InsightsState,
  campaigns: Array<{ row: Row; account: string }>,
  path: string,
  asReport = false,
): SandboxResponse {
  const fields = String(call.params.fields ?? 'impressions,spend')
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  const unknown = fields.find((field) => !INSIGHT_FIELDS.includes(field));
  if (unknown) return graphError(100, `(#100) ${unknown} is not valid for fields param.`);
  if (call.params.time_increment !== undefined && String(call.params.time_increment) !== '1' && call.params.time_increment !== 'all_days')
    return graphError(100, '(#100) Param time_increment must be a number between 1 and 90, or monthly or all_days');
  let range: { since?: string; until?: string };
  try {
    range = JSON.parse(String(call.params.time_range ?? '{}')) as { since?: string; until?: string };
  } catch {
    return graphError(100, '(#100) Param time_range must be a JSON object with since and until');
  }
  const dated = /^\d{4}-\d{2}-\d{2}$/;
  if (!range.since || !range.until || !dated.test(range.since) || !dated.test(range.until) || range.since > range.until)
    return graphError(100, '(#100) Param time_range must be a JSON object with since and until, since not after until');
  const rows: Row[] = [];
  for (const { row, account } of campaigns) {
    const { currency } = accountOf(state.world, account);
    for (const date of daysBetween(range.since, range.until, clock.today(0))) {
      const insight = dailyInsight(row, account, currency, date);
      if (insight) rows.push(insight);
    }
  }
  rows.sort((a, b) => String(a.date_start).localeCompare(String(b.date_start)) || String(a.campaign_id).localeCompare(String(b.campaign_id)));
  if (asReport) {
    // an asynchronous report run: any size, read at /{run}/insights once the run says it is complete
    const id = `60219876${String(state.reportRuns.size + 1).padStart(8, '0')}`;
    state.reportRuns.set(id, { rows, fields, polls: 0, account: String(campaigns[0]?.account ?? ''), range });
    return { status: 200, body: { report_run_id: id } };
  }
  if (rows.length > MAX_SYNC_INSIGHT_ROWS)
    return graphError(1, "Please reduce the amount of data you're asking for, then retry your request", { is_transient: false }, 500);
  return page(call, path, rows, fields, 25, 5_000);
}

/** A report run: `Job Running` at the first look, `Job Completed` from the second on. */
export function reportRunStatus(run: ReportRun, id: string): SandboxResponse {
  run.polls++;
  const done = run.polls > 1;
  return {
    status: 200,
    body: {
      id,
      account_id: run.account,
      async_status: done ? 'Job Completed' : 'Job Running',
      async_percent_completion: done ? 100 : 42,
      is_running: !done,
      date_start: run.range.since,
      date_stop: run.range.until,
    },
  };
}

/** The part of the sandbox's state insights use: the campaigns (and their world) and the report runs. */
type InsightsState = { campaigns: Map<string, Row[]>; world: CampaignWorld; reportRuns: Map<string, ReportRun> };

export const campaignInsightsNode =
  (asReport: boolean): GraphHandler<InsightsState> =>
  (call, state, { node }) => {
    const run = state.reportRuns.get(node as string);
    if (run && !asReport)
      return run.polls > 1 ? page(call, `${node}/insights`, run.rows, run.fields, 25, 500) : graphError(100, '(#100) The report is not ready yet');
    const campaign = findCampaign(state.world, node as string);
    if (!campaign) return unknownObject(asReport ? 'POST' : 'GET', node as string);
    return insights(call, state, [campaign], `${node}/insights`, asReport);
  };

export const accountInsights =
  (asReport: boolean): GraphHandler<InsightsState> =>
  (call, state, params) =>
    accountInsightsOf(call, state, params, asReport);

export const accountInsightsOf = (
  call: GraphCall,
  state: InsightsState,
  { account }: Record<string, string | undefined>,
  asReport: boolean,
): SandboxResponse => {
  const rows = state.campaigns.get(account as string);
  if (!rows) return unknownObject('GET', `act_${account}`);
  let wanted: string[] | undefined;
  if (call.params.filtering !== undefined) {
    const filters = parseJsonFilters(call.params.filtering);
    if (!filters) return graphError(100, '(#100) Param filtering must be an array of {field, operator, value}');
    const byId = filters.find((filter) => filter.field === 'campaign.id' && filter.operator === 'IN');
    wanted = byId ? (byId.value as unknown[]).map(String) : undefined;
  }
  const selected = rows.filter((row) => !wanted || wanted.includes(String(row.id))).map((row) => ({ row, account: account as string }));
  // a report by level or breakdown (docs/reports.md); the plain campaign rows below serve Performance and rules
  const report = call.params.breakdowns !== undefined || call.params.action_attribution_windows !== undefined || call.params.time_increment === 'all_days';
  if (call.params.level !== 'campaign' || report) {
    if (!asReport)
      return reportInsights(
        call,
        state.world,
        selected.map(({ row }) => row),
        account as string,
        `act_${account}/insights`,
      );
    const made = reportRows(
      call,
      state.world,
      selected.map(({ row }) => row),
      account as string,
    );
    if (!('rows' in made)) return made;
    const id = `60219876${String(state.reportRuns.size + 1).padStart(8, '0')}`;
    const range = JSON.parse(String(call.params.time_range)) as { since?: string; until?: string };
    state.reportRuns.set(id, { rows: made.rows, fields: made.fields, polls: 0, account: account as string, range });
    return { status: 200, body: { report_run_id: id } };
  }
  return insights(call, state, selected, `act_${account}/insights`, asReport);
};

export function parseJsonFilters(value: unknown): Array<{ field: string; operator: string; value: unknown }> | undefined {
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(parsed) &&
      parsed.every((filter) => filter && typeof filter === 'object' && 'field' in filter && 'operator' in filter && 'value' in filter)
      ? (parsed as Array<{ field: string; operator: string; value: unknown }>)
      : undefined;
  } catch {
    return undefined;
  }
}
