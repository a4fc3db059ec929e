import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { fromUnits } from '../../../shared/core/money.ts';
import type { ControlledCampaign } from '../../../shared/platforms/campaign-control.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';
import { budgetTarget, dayIn, lookbackDays, MAX_RULE_ACTIONS_PER_DAY, shiftDay } from '../../../shared/rules/evaluation.ts';
import type { Evaluation, RuleDefinition } from '../../../shared/schemas/rules.ts';
import type { User } from '../../../shared/store/users.ts';
import { evaluateRule, type GroupMetrics, windowsOf } from './rule-evaluation.ts';
import { requireConnection, storedOrGiven } from './rules.ts';

/**
 * A rule tried on the past (docs/rules.md, "Backtest"): evaluated as the scheduler would have, once a
 * day over the last `days` whole days, on the platform's daily figures, with its own simulated actions
 * held by its cooldown, the daily cap and its budget bounds. It starts from the campaigns as they are
 * now (their status and budget: nothing tells what they were), changes nothing, and reads the platform
 * three times whatever the days and campaigns: the account's facts (kept an hour), the figures of the
 * whole range once, and the campaigns once.
 */
export interface BacktestDay {
  date: string;
  evaluations: Evaluation[];
}

interface Simulated {
  campaign: ControlledCampaign;
  status: ControlledCampaign['status'];
  units?: bigint;
  /** the days the rule acted on it */
  acted: string[];
}

const DAY_MS = 86_400_000;

export async function backtestRule(
  tenantId: string,
  user: User,
  input: { ruleId?: string; rule?: RuleDefinition; days: number },
  context: Context,
): Promise<{ days: BacktestDay[]; summary: { actions: number; campaigns: number } }> {
  const rule = await storedOrGiven(tenantId, user, input);
  requireConnection(user, rule.platform);
  const platform = platformAdapters[rule.platform];
  platform.canReadMetrics?.(user);
  const session = platform.session(user, context);
  const facts = await platform.metrics.account(session);
  const today = dayIn(facts.timeZone, clock.now());
  const lookback = Math.max(...rule.conditions.flatMap(windowsOf).map(lookbackDays));
  const range = { startDate: shiftDay(today, -input.days - lookback), endDate: shiftDay(today, -1) };
  const read = await platform.metrics.read(session, rule.campaignIds, range);
  const campaigns = await platform.control.readMany(session, rule.campaignIds);
  const simulated = new Map<string, Simulated>();
  for (const [id, campaign] of campaigns)
    simulated.set(id, { campaign, status: campaign.status, ...(campaign.budget.kind === 'daily' ? { units: campaign.budget.units } : {}), acted: [] });

  const windows = new Set(rule.conditions.flatMap(windowsOf));
  const days: BacktestDay[] = [];
  let actions = 0;
  for (let back = input.days; back >= 1; back--) {
    const date = shiftDay(today, -back);
    // the day as the scheduler saw it, its figures whole: every window reads the one range read
    const metrics: GroupMetrics = { facts, today: date, byWindow: new Map([...windows].map((window) => [window, read.days])), totals: new Map() };
    const evaluations = evaluateRule(rule, metrics);
    for (const evaluation of evaluations) {
      if (!evaluation.matched) continue;
      const outcome = simulate(rule, simulated.get(evaluation.campaignId), date);
      if ('skipped' in outcome) evaluation.skipped = outcome.skipped;
      else {
        evaluation.action = { type: rule.action.type, from: outcome.from, to: outcome.to };
        actions++;
      }
    }
    days.push({ date, evaluations });
  }
  const acted = [...simulated.values()].filter((state) => state.acted.length > 0).length;
  return { days, summary: { actions, campaigns: acted } };
}

/** The rule's own action on a simulated campaign on a day, through its guardrails, or why it would not act. */
function simulate(rule: RuleDefinition, state: Simulated | undefined, date: string): { from: string; to: string } | { skipped: string } {
  if (!state) return { skipped: 'the campaign is not in the account now' };
  const { campaign } = state;
  if (state.status === 'REMOVED') return { skipped: 'the campaign is removed; nothing acts on it' };
  const last = state.acted.at(-1);
  // the scheduler ran once a day: the days between two of its runs are whole days
  if (last && (Date.parse(date) - Date.parse(last)) / DAY_MS < rule.cooldownHours / 24)
    return { skipped: `cooldown: the rule acted on ${last}; it waits ${rule.cooldownHours} h` };
  if (state.acted.filter((day) => day === date).length >= MAX_RULE_ACTIONS_PER_DAY) return { skipped: 'daily cap' };
  const { action } = rule;
  if (action.type === 'PAUSE' || action.type === 'ACTIVATE') {
    const to = action.type === 'PAUSE' ? 'PAUSED' : 'ACTIVE';
    if (state.status === to) return { skipped: `the campaign is already ${to}` };
    const from = state.status;
    state.status = to;
    state.acted.push(date);
    return { from, to };
  }
  if (state.units === undefined)
    return { skipped: campaign.budget.kind === 'elsewhere' ? `no daily budget of its own: ${campaign.budget.where}` : 'no daily budget of its own' };
  if (campaign.budget.kind === 'shared') return { skipped: `its budget is shared with ${campaign.budget.sharedWith} other campaigns; a rule never changes it` };
  const target = budgetTarget(action, state.units, campaign.decimals);
  if ('skip' in target) return { skipped: target.skip };
  const from = fromUnits(state.units, campaign.decimals);
  state.units = target.units;
  state.acted.push(date);
  return { from, to: fromUnits(target.units, campaign.decimals) };
}
