import type { PlatformAdapter } from '../../../shared/platforms/adapter.ts';
import { clock } from '../../../shared/core/clock.ts';
import { ServiceError } from '../../../shared/core/errors.ts';
import { fromUnits, isoDecimals } from '../../../shared/core/money.ts';
import type { ControlledCampaign } from '../../../shared/platforms/campaign-control.ts';
import type { AccountFacts, MetricsRead } from '../../../shared/platforms/campaign-metrics.ts';
import { type DailyCounts, metricOf, type Totals } from '../../../shared/platforms/performance.ts';
import {
  budgetTarget,
  changeKey,
  comparable,
  conditionHolds,
  dayIn,
  percentChange,
  guardrailSkip,
  metricKey,
  type PlannedChange,
  totalsOf,
  windowRange,
} from '../../../shared/rules/evaluation.ts';
import type { Evaluation, RuleCondition, RuleDefinition, RuleWindow } from '../../../shared/schemas/rules.ts';
import { campaignChangesSince } from '../../../shared/store/campaign-changes.ts';

/**
 * What a rule sees and what it would do (docs/operations.md, "Rules"): the metrics of its campaigns
 * over its windows from the many-campaign reader (one read per window for a whole group of rules),
 * its conditions, and for a campaign it matches the change it would make and whether a guardrail
 * holds it back. The preview stops here; a run (rule-runs.ts) goes on to act.
 */
/** What a rule uses of its platform: the platform's adapter (its control, its many-campaign reader, its session). */
export type RulePlatform<Session> = PlatformAdapter<Session>;

export interface GroupMetrics {
  facts: AccountFacts;
  today: string;
  /** per window, each campaign's days */
  byWindow: Map<RuleWindow, Map<string, DailyCounts[]>>;
  /** each campaign's sums over a window (`<window>:<campaign>`), made when first needed */
  totals: Map<string, Totals>;
}

/** Asked before each upstream request a run makes; false stops the run (its share of the quota is spent). */
export type SpendCalls = (calls: number) => Promise<boolean>;
const unlimited: SpendCalls = async () => true;

export class QuotaSpent extends Error {}

/** Every window the rules need, each read once for all the campaigns that need it. */
export async function readGroupMetrics<S>(
  platform: RulePlatform<S>,
  session: S,
  rules: readonly Pick<RuleDefinition, 'campaignIds' | 'conditions'>[],
  spend: SpendCalls = unlimited,
): Promise<GroupMetrics> {
  if (!(await spend(1))) throw new QuotaSpent();
  const facts = await platform.metrics.account(session);
  const today = dayIn(facts.timeZone, clock.now());
  const byWindow = new Map<RuleWindow, Map<string, DailyCounts[]>>();
  const windows = new Set(rules.flatMap((rule) => rule.conditions.flatMap(windowsOf)));
  for (const window of windows) {
    const ids = [
      ...new Set(rules.filter((rule) => rule.conditions.some((condition) => windowsOf(condition).includes(window))).flatMap((rule) => rule.campaignIds)),
    ];
    if (!(await spend(1))) throw new QuotaSpent();
    const read: MetricsRead = await platform.metrics.read(session, ids, windowRange(window, today));
    if (read.requests > 1) await spend(read.requests - 1); // pages and slices: already made, counted
    byWindow.set(window, read.days);
  }
  return { facts, today, byWindow, totals: new Map() };
}

/** The windows a condition reads: its own, and the one it compares against. */
export const windowsOf = (condition: RuleCondition): RuleWindow[] =>
  condition.compareTo ? [condition.window, condition.compareTo.window] : [condition.window];

/** Each campaign's metrics for the rule's conditions, and whether they all hold. */
export function evaluateRule(rule: Pick<RuleDefinition, 'campaignIds' | 'conditions'>, metrics: GroupMetrics): Evaluation[] {
  const decimals = isoDecimals(metrics.facts.currency);
  const metricValue = (campaignId: string, metric: RuleCondition['metric'], window: RuleWindow) => {
    // each campaign's sums over a window are made once for the whole group
    const key = `${window}:${campaignId}`;
    let totals = metrics.totals.get(key);
    if (!totals) {
      totals = totalsOf(metrics.byWindow.get(window)?.get(campaignId) ?? [], windowRange(window, metrics.today));
      metrics.totals.set(key, totals);
    }
    return metricOf(totals, metric, decimals) ?? null;
  };
  return rule.campaignIds.map((campaignId) => {
    const values: Record<string, string | null> = {};
    let matched = true;
    for (const condition of rule.conditions) {
      const value = metricValue(campaignId, condition.metric, condition.window);
      values[metricKey(condition)] = value;
      if (!condition.compareTo) {
        matched &&= conditionHolds(condition, value);
        continue;
      }
      const base = metricValue(campaignId, condition.metric, condition.compareTo.window);
      values[metricKey({ metric: condition.metric, window: condition.compareTo.window })] = base;
      const change =
        percentChange(comparable(condition.metric, value, condition.window), comparable(condition.metric, base, condition.compareTo.window)) ?? null;
      values[changeKey({ ...condition, compareTo: condition.compareTo })] = change;
      matched &&= conditionHolds(condition, change);
    }
    return { campaignId, metrics: values, matched };
  });
}

export type Decision =
  | { kind: 'act'; campaign: ControlledCampaign; change: PlannedChange }
  | { kind: 'skip'; reason: string; change?: PlannedChange }
  | { kind: 'fail'; code: string; message: string };

const budgetChange = (campaign: ControlledCampaign, from: bigint, to: bigint): PlannedChange => ({
  field: 'dailyBudget',
  from: fromUnits(from, campaign.decimals),
  to: fromUnits(to, campaign.decimals),
});

/** The change the rule's action makes to a campaign it matched, from a fresh read, through the guardrails. */
export async function decide<S>(
  platform: RulePlatform<S>,
  session: S,
  context: { tenantId: string; userId: string; ruleId: string; rule: Pick<RuleDefinition, 'action' | 'cooldownHours'>; timeZone: string },
  campaignId: string,
): Promise<Decision> {
  let campaign: ControlledCampaign | undefined;
  try {
    campaign = await platform.control.read(session, campaignId);
  } catch (error) {
    return failure(error);
  }
  if (!campaign) return { kind: 'fail', code: 'CAMPAIGN_NOT_FOUND', message: `Campaign ${campaignId} is not in the user’s connected account.` };
  if (campaign.status === 'REMOVED') return { kind: 'skip', reason: `the campaign is removed (${campaign.platformStatus.toLowerCase()}); nothing acts on it` };
  const { action } = context.rule;
  let change: PlannedChange;
  if (action.type === 'PAUSE' || action.type === 'ACTIVATE') {
    const to = action.type === 'PAUSE' ? 'PAUSED' : 'ACTIVE';
    if (campaign.status === to) return { kind: 'skip', reason: `the campaign is already ${to}` };
    change = { field: 'status', from: campaign.status, to };
  } else {
    const { budget } = campaign;
    if (budget.kind === 'elsewhere')
      return { kind: 'fail', code: 'BUDGET_NOT_ON_CAMPAIGN', message: `Campaign ${campaignId} has no daily budget of its own: ${budget.where}.` };
    if (budget.kind === 'shared')
      return {
        kind: 'fail',
        code: 'SHARED_BUDGET',
        message: `The budget of campaign ${campaignId} is shared with ${budget.sharedWith} other campaigns; a rule never changes it.`,
      };
    const target = budgetTarget(action, budget.units, campaign.decimals);
    if ('skip' in target) return { kind: 'skip', reason: target.skip };
    change = budgetChange(campaign, budget.units, target.units);
  }
  const now = clock.now();
  // every change made to the campaign in the tenant (any user, the API or a rule) over the cooldown and the account day
  const recent = await campaignChangesSince(
    context.tenantId,
    platform.control.platform,
    campaignId,
    now - Math.max(context.rule.cooldownHours, 48) * 3_600_000,
  );
  const held = guardrailSkip({
    ruleId: context.ruleId,
    cooldownHours: context.rule.cooldownHours,
    now,
    timeZone: context.timeZone,
    plan: change,
    recent: recent.map(({ at, change: made, source }) => ({ at, field: made.field, from: made.from, to: made.to, source })),
  });
  if (held) return { kind: 'skip', reason: held, change };
  return { kind: 'act', campaign, change };
}

/** A refusal or failure as the run log shows it. */
export function failure(error: unknown): { kind: 'fail'; code: string; message: string } {
  if (error instanceof ServiceError) return { kind: 'fail', code: error.code, message: error.message };
  return { kind: 'fail', code: 'INTERNAL', message: 'The action failed unexpectedly.' };
}

export const actionOf = (type: string, change: PlannedChange | undefined) => (change ? { action: { type, from: change.from, to: change.to } } : {});
