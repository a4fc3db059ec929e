import type { Context } from 'aws-lambda';
import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { type Platform, QuotaExceeded } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { QueueMessage } from '../../../shared/queue/messages.ts';
import { DECLARATION_REFUSAL } from '../../../shared/schemas/refusals.ts';
import { type Evaluation, modeOf, type RuleActionOutcome, type RuleRun } from '../../../shared/schemas/rules.ts';
import { runLogWrites } from '../../../shared/store/rule-group-writes.ts';
import { endGroupRun, type RuleRunEnd, spendRulesQuota } from '../../../shared/store/rule-writes.ts';
import { findGroupRuleItems, type RuleItem } from '../../../shared/store/rules.ts';
import { findUser } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { type ActionContext, actOn } from './rule-actions.ts';
import { actionOf, evaluateRule, failure, type GroupMetrics, QuotaSpent, type RulePlatform, readGroupMetrics, type SpendCalls } from './rule-evaluation.ts';
import { notifyMatch, propose } from './rule-proposals.ts';

/**
 * One run of a group of due rules: one user, one platform (docs/operations.md, "Rules"). The metrics
 * are read once per window for the whole group; each rule is evaluated in memory; each action goes
 * through the campaign-control code the HTTP operations use (the same refusals, history and audit),
 * with the rule as the actor. An action is keyed by (rule, run, campaign): before it writes, its
 * target is stored, so a run handed back by the queue after a crash finishes what it began and never
 * acts twice. The run stops, partial, before it spends more than the tenant's share of the platform's
 * daily calls; the rule stays due and goes on at the next pass.
 */
/** a group of due rules (the queue also carries approvals to finish: proposals.ts) */
export type RuleRunMessage = Extract<QueueMessage<'RuleRuns'>, { rules: unknown }>;

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
      const quota = error instanceof QuotaSpent || error instanceof QuotaExceeded;
      const reason = quota
        ? error instanceof QuotaExceeded
          ? error.message
          : quotaReason(limit)
        : `the metrics could not be read: ${failure(error).code}: ${failure(error).message}`;
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
          const { outcome, change } = await respond(
            { tenantId, userId, rule: item, runId, platform, session, timeZone: metrics.facts.timeZone, spend },
            evaluation,
          );
          actions.push(outcome);
          evaluations.push({ ...evaluation, ...actionOf(item.action.type, change) });
        } catch (error) {
          // the optimizer's share, or the tenant's share of the search-ads project's day: the account is skipped until then
          if (!(error instanceof QuotaSpent || error instanceof QuotaExceeded)) throw error;
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

/** A match as the rule's mode says: a change, a proposal for a person to decide, or only a word. */
function respond(context: ActionContext, evaluation: Evaluation) {
  switch (modeOf(context.rule.action)) {
    case 'apply':
      return actOn(context, evaluation.campaignId);
    case 'approve':
      return propose(context, evaluation);
    case 'notify':
      return notifyMatch(context, evaluation);
  }
}

const quotaReason = (limit: number) =>
  `the optimizer spent its share of the platform's daily calls for this tenant (${limit}); the rule goes on at the next pass`;

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
