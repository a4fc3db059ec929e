import type { Context } from 'aws-lambda';
import { type AuditSpec, AuditUnit, draftOf, runAudited, systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { exactlyOnce, type StepStore } from '../../../shared/core/exactly-once.ts';
import type { Platform } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { QueueMessage } from '../../../shared/queue/messages.ts';
import { campaignBudgetAudit, campaignStatusAudit } from '../../../shared/schemas/campaign-control.ts';
import type { PlannedChange } from '../../../shared/rules/evaluation.ts';
import type { Evaluation, RuleActionOutcome, RuleRun } from '../../../shared/schemas/rules.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { endGroupRun, type RuleActionKey, type RuleRunEnd, ruleActionSteps, spendRulesQuota } from '../../../shared/store/rule-writes.ts';
import { runLogWrites } from '../../../shared/store/rule-group-writes.ts';
import { findGroupRuleItems, type RuleItem } from '../../../shared/store/rules.ts';
import { findUser } from '../../../shared/store/users.ts';
import { noteDeclarationRequired } from '../../../shared/webhooks/declaration-required.ts';
import { DECLARATION_REFUSAL } from '../../../shared/schemas/operation-doc.ts';
import { recordedOnce, underCampaignLease } from '../../../shared/store/campaign-changes.ts';
import { keys } from '../../../shared/store/keys.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { editCampaignBudget, updateCampaignStatus } from '../control/campaign-control.ts';
import {
  actionOf,
  decide,
  evaluateRule,
  failure,
  type GroupMetrics,
  QuotaSpent,
  type RulePlatform,
  readGroupMetrics,
  type SpendCalls,
} from './rule-evaluation.ts';

/**
 * One run of a group of due rules: one user, one platform (docs/operations.md, "Rules"). The metrics
 * are read once per window for the whole group; each rule is evaluated in memory; each action goes
 * through the campaign-control code the HTTP operations use (the same refusals, history and audit),
 * with the rule as the actor. An action is keyed by (rule, run, campaign): before it writes, its
 * target is stored, so a run handed back by the queue after a crash finishes what it began and never
 * acts twice. The run stops, partial, before it spends more than the tenant's share of the platform's
 * daily calls; the rule stays due and goes on at the next pass.
 */
export type RuleRunMessage = QueueMessage<'RuleRuns'>;

const SCHEDULE_MS = { HOURLY: 3_600_000, DAILY: 86_400_000 } as const;
export const DISABLE_AFTER_FAILED_RUNS = 3;

/** A run's id: the rule and the time it was due, so a redelivered message is the same run. */
export const runIdOf = (ruleId: string, scheduledAt: string) => `run_${String(Date.parse(scheduledAt)).padStart(13, '0')}_${ruleId.slice(4)}`;

const dailyCalls = (platform: Platform) =>
  ({ social: config().RULES_DAILY_CALLS_SOCIAL, searchads: config().RULES_DAILY_CALLS_SEARCHADS, professional: config().RULES_DAILY_CALLS_PROFESSIONAL })[
    platform
  ];

export async function runRuleGroup(message: RuleRunMessage, platform: RulePlatform<unknown>, context: Context): Promise<RuleRun[]> {
  return withAuditScope({ actor: systemActor('rule_runs') }, async () => {
    const { tenantId, userId } = message;
    const user = await findUser(tenantId, userId);
    const found = await findGroupRuleItems(
      tenantId,
      userId,
      message.platform,
      message.rules.map((rule) => rule.ruleId),
    );
    // a rule changed, disabled, deleted or already run since it was queued is left as it is now
    const items = message.rules.flatMap(({ ruleId, scheduledAt }) => {
      const item = found.find((rule) => rule.ruleId === ruleId);
      return item?.enabled && item.platform === message.platform && item.nextRunAt === scheduledAt ? [{ item, scheduledAt }] : [];
    });
    if (!user || items.length === 0) return [];
    const startedAt = new Date(clock.now()).toISOString();
    const limit = Math.floor(config().RULES_QUOTA_SHARE * dailyCalls(message.platform));
    const spend: SpendCalls = (calls) => spendRulesQuota(tenantId, message.platform, clock.today(), calls, limit);

    let metrics: GroupMetrics;
    let session: unknown;
    try {
      platform.canReadMetrics?.(user);
      session = platform.session(user, context);
      metrics = await readGroupMetrics(
        platform,
        session,
        items.map(({ item }) => item),
        spend,
      );
    } catch (error) {
      const quota = error instanceof QuotaSpent;
      const reason = quota ? quotaReason(limit) : `the metrics could not be read: ${failure(error).code}: ${failure(error).message}`;
      return endGroup(
        message,
        items.map(({ item, scheduledAt }) => ({ item, scheduledAt, run: runOf(item, scheduledAt, startedAt, quota ? 'partial' : 'failed', [], [], reason) })),
      );
    }

    const ran: Array<{ item: RuleItem; scheduledAt: string; run: RuleRun }> = [];
    let quotaHit = false;
    for (const { item, scheduledAt } of items) {
      const evaluations: Evaluation[] = [];
      const actions: RuleActionOutcome[] = [];
      const runId = runIdOf(item.ruleId, scheduledAt);
      for (const evaluation of evaluateRule(item, metrics)) {
        if (!evaluation.matched || quotaHit) {
          evaluations.push(evaluation);
          continue;
        }
        try {
          const { outcome, change } = await actOn({ tenantId, userId, rule: item, runId, platform, session, metrics, spend }, evaluation.campaignId);
          actions.push(outcome);
          evaluations.push({ ...evaluation, ...actionOf(item.action.type, change) });
        } catch (error) {
          if (!(error instanceof QuotaSpent)) throw error;
          quotaHit = true;
          evaluations.push(evaluation);
        }
      }
      const status = quotaHit ? 'partial' : 'completed';
      ran.push({ item, scheduledAt, run: runOf(item, scheduledAt, startedAt, status, evaluations, actions, quotaHit ? quotaReason(limit) : undefined) });
    }
    return endGroup(message, ran);
  });
}

const quotaReason = (limit: number) =>
  `the optimizer spent its share of the platform's daily calls for this tenant (${limit}); the rule goes on at the next pass`;

/** What every action of one rule's run works with. */
export interface ActionContext {
  tenantId: string;
  userId: string;
  rule: RuleItem;
  runId: string;
  platform: RulePlatform<unknown>;
  session: unknown;
  metrics: GroupMetrics;
  spend: SpendCalls;
  /** the world an action touches besides the platform: the store's, or a unit test's fakes */
  ports?: ActionPorts;
}

/** What an action needs besides the platform: its exactly-once steps, the campaign's lease, its decision, its write and its announcement. */
export interface ActionPorts {
  steps: StepStore<RuleActionKey, PlannedChange, RuleActionOutcome>;
  underLease<T>(scope: { tenantId: string; platform: Platform; campaignId: string; holder?: string }, work: () => Promise<T>): Promise<T>;
  decide: typeof decide;
  apply: typeof apply;
  announce(tenantId: string, applied: Record<string, unknown>): Promise<unknown>;
}

const storeActionPorts: ActionPorts = {
  steps: ruleActionSteps,
  underLease: underCampaignLease,
  decide,
  apply,
  announce: (tenantId, applied) => emitWebhookEvent(tenantId, 'optimization.applied', applied),
};

/**
 * One matched campaign's action: an exactly-once step (core/exactly-once.ts) keyed by (rule, run,
 * campaign), under the campaign's lease. Decided from a fresh read through the guardrails; stored
 * with what it sets out to do before it writes; a delivery after a crash finishes it as decided; the
 * delivery that completes it, and only that one, announces it. Answers the outcome for the run log and
 * the change the evaluation shows.
 */
export async function actOn(context: ActionContext, campaignId: string): Promise<{ outcome: RuleActionOutcome; change?: PlannedChange }> {
  const { tenantId, userId, rule, runId, platform, session, metrics, spend } = context;
  const ports = context.ports ?? storeActionPorts;
  const type = rule.action.type;
  let decision: Awaited<ReturnType<typeof decide>> | undefined;
  let applied: unknown;
  const step = await ports.underLease(
    // named by the action: a delivery after a crash takes it back at once
    { tenantId, platform: platform.control.platform, campaignId, holder: `action_${rule.ruleId}_${runId}_${campaignId}` },
    () =>
      exactlyOnce<RuleActionKey, PlannedChange, RuleActionOutcome>({
        store: ports.steps,
        key: { tenantId, ruleId: rule.ruleId, runId, campaignId },
        decide: async () => {
          if (!(await spend(1))) throw new QuotaSpent();
          decision = await ports.decide(platform, session, { tenantId, userId, ruleId: rule.ruleId, rule, timeZone: metrics.facts.timeZone }, campaignId);
          if (decision.kind === 'fail')
            return { nothing: { campaignId, type, outcome: 'failed' as const, error: { code: decision.code, message: decision.message } } };
          if (decision.kind === 'skip')
            return { nothing: { campaignId, type, ...shown(decision.change), outcome: 'skipped' as const, reason: decision.reason } };
          return { intent: decision.change };
        },
        perform: async (intent) => {
          if (!(await spend(1))) throw new QuotaSpent();
          const { change, ...logged } = await ports.apply(context, campaignId, decision?.kind === 'act' ? decision.campaign : undefined, intent);
          applied = change;
          return logged;
        },
      }),
  );
  if (step.by === 'nobody') return { outcome: step.result, ...(decision?.kind === 'skip' && decision.change ? { change: decision.change } : {}) };
  if (step.by === 'busy') return { outcome: concurrent(campaignId, type, step.intent), ...(step.intent ? { change: step.intent } : {}) };
  if (step.by === 'this' && step.result.outcome === 'applied')
    await ports
      .announce(tenantId, { userId, platform: platform.control.platform, campaignId, ruleId: rule.ruleId, change: applied })
      .catch((error: unknown) => log().warn('optimization.applied not stored', { reason: (error as Error).name }));
  return { outcome: step.result, change: step.intent };
}

const shown = (change: PlannedChange | undefined) => (change ? { from: change.from, to: change.to } : {});

const concurrent = (campaignId: string, type: string, change: PlannedChange | undefined): RuleActionOutcome => ({
  campaignId,
  type,
  ...shown(change),
  outcome: 'skipped',
  reason: 'another delivery of this run is acting on the campaign',
});

/** The write, through the control code, as the rule: the history entry names the rule; the audit event has it as actor. */
async function apply(
  { tenantId, userId, rule, runId, platform, session }: ActionContext,
  campaignId: string,
  campaign: Parameters<typeof updateCampaignStatus>[2]['campaign'],
  change: { field: 'status' | 'dailyBudget'; from: string; to: string },
): Promise<RuleActionOutcome & { change?: unknown }> {
  const { control } = platform;
  const action = { decided: change, recordedOnce: recordedOnce(keys.ruleAction(tenantId, rule.ruleId, runId, campaignId)) };
  const base = { campaignId, type: rule.action.type, from: change.from, to: change.to };
  const source = { type: 'rule' as const, ruleId: rule.ruleId };
  const scope = { actor: { type: 'rule' as const, id: rule.ruleId } };
  // the action's audit, as the operation it stands for would declare it
  const auditOf = (spec: AuditSpec, input: object) =>
    new AuditUnit((result, failed) => draftOf(spec, { tenantId, platform: control.platform, input, result, ...(failed ? { failure: failed } : {}) }));
  try {
    if (change.field === 'status') {
      const input = { userId, campaignId, status: change.to as 'ACTIVE' | 'PAUSED', validateOnly: false };
      const audit = auditOf(campaignStatusAudit, input);
      const result = await runAudited(scope, audit, recordAuditEvent, () =>
        updateCampaignStatus(control, session, { tenantId, userId, input, audit, source, action, ...(campaign ? { campaign } : {}) }),
      );
      // a change finished after a crash finds the campaign changed already: its `from` is the decided one
      return { ...base, outcome: 'applied', change: { field: 'status', from: result.changed ? result.previousStatus : change.from, to: result.status } };
    }
    const input = { userId, campaignId, editLevel: 'BUDGET' as const, amount: change.to, validateOnly: false, allowSharedBudget: false };
    const audit = auditOf(campaignBudgetAudit, input);
    const result = await runAudited(scope, audit, recordAuditEvent, () =>
      editCampaignBudget(control, session, { tenantId, userId, input, audit, source, action, ...(campaign ? { campaign } : {}) }),
    );
    const from = result.changed ? result.previousDailyBudget : { amount: change.from, currency: result.dailyBudget.currency };
    return { ...base, outcome: 'applied', change: { field: 'dailyBudget', from, to: result.dailyBudget } };
  } catch (error) {
    const { code, message } = failure(error);
    if (code === 'CAMPAIGN_REMOVED') return { ...base, outcome: 'skipped', reason: 'the campaign is removed; nothing acts on it' };
    await noteDeclarationRequired(tenantId, userId, error);
    return { ...base, outcome: 'failed', error: { code, message } };
  }
}

/** One rule's run, as its log shows it. */
function runOf(
  item: RuleItem,
  scheduledAt: string,
  startedAt: string,
  status: RuleRun['status'],
  evaluations: Evaluation[],
  actions: RuleActionOutcome[],
  reason?: string,
): RuleRun {
  return {
    runId: runIdOf(item.ruleId, scheduledAt),
    ruleId: item.ruleId,
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    status,
    evaluations,
    actions,
    ...(reason ? { reason } : {}),
  };
}

/** How a rule's run ends on the rule: its next run one schedule period on, or its disabling after too many failed runs. */
function endOf(item: RuleItem, scheduledAt: string, run: RuleRun): RuleRunEnd {
  // an account blocked until its campaigns are declared is no fault of the rule: it neither counts toward disabling it nor clears its count
  const blocked = (action: RuleActionOutcome) => action.outcome === 'failed' && action.error?.code === DECLARATION_REFUSAL;
  if (run.status !== 'failed' && run.actions.some(blocked) && !run.actions.some((action) => action.outcome === 'failed' && !blocked(action)))
    return {
      ruleId: item.ruleId,
      scheduledAt,
      state: {
        lastRunAt: run.finishedAt,
        consecutiveFailedRuns: item.consecutiveFailedRuns,
        nextRunAt: new Date(Date.parse(run.finishedAt) + SCHEDULE_MS[item.schedule]).toISOString(),
      },
    };
  const failed = run.status === 'failed' || run.actions.some((action) => action.outcome === 'failed');
  const streak = failed ? item.consecutiveFailedRuns + 1 : 0;
  const disabledReason =
    streak >= DISABLE_AFTER_FAILED_RUNS
      ? `its actions failed in ${streak} runs in a row (the last: ${failedReason(run)}); fix the cause and enable it again`
      : undefined;
  const next = new Date(Date.parse(run.finishedAt) + SCHEDULE_MS[item.schedule]).toISOString();
  return {
    ruleId: item.ruleId,
    scheduledAt,
    state: { lastRunAt: run.finishedAt, consecutiveFailedRuns: streak, ...(disabledReason ? {} : { nextRunAt: next }) },
    ...(disabledReason ? { disabledReason } : {}),
  };
}

/**
 * The group run's end, in one write: every rule's run in the group's log, the rules' next runs (a
 * partial run leaves its rules due and keeps the claim, so the next pass after it goes on), the
 * disabled rules and their webhook.
 */
async function endGroup(message: RuleRunMessage, ran: Array<{ item: RuleItem; scheduledAt: string; run: RuleRun }>): Promise<RuleRun[]> {
  const { tenantId, userId, platform } = message;
  const runs = ran.map(({ run }) => run);
  const partial = runs.some((run) => run.status === 'partial');
  const ends = ran.filter(({ run }) => run.status !== 'partial').map(({ item, scheduledAt, run }) => endOf(item, scheduledAt, run));
  const disabled = await endGroupRun({ tenantId, userId, platform }, ends, runLogWrites(tenantId, userId, platform, message.rules, runs), {
    keepClaim: partial,
  });
  for (const ruleId of disabled) {
    const reason = ends.find((end) => end.ruleId === ruleId)?.disabledReason;
    await emitWebhookEvent(tenantId, 'optimization.rule_disabled', { userId, ruleId, reason }).catch((error: unknown) =>
      log().warn('optimization.rule_disabled not stored', { reason: (error as Error).name }),
    );
  }
  return runs;
}

const failedReason = (run: RuleRun) => run.reason ?? run.actions.find((action) => action.outcome === 'failed')?.error?.code ?? 'unknown';
