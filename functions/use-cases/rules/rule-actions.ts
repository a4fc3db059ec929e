import { randomBytes } from 'node:crypto';
import { type AuditScope, type AuditSpec, AuditUnit, draftOf, runAudited } from '../../../shared/core/audit.ts';
import { exactlyOnce, type StepStore } from '../../../shared/core/exactly-once.ts';
import { type Platform, ServiceError } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { PlannedChange } from '../../../shared/rules/evaluation.ts';
import { campaignBudgetAudit, campaignStatusAudit } from '../../../shared/schemas/campaign-control.ts';
import type { HistorySource } from '../../../shared/schemas/optimization.ts';
import type { RuleActionOutcome, RuleDefinition } from '../../../shared/schemas/rules.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { recordedOnce, underCampaignLease } from '../../../shared/store/campaign-changes.ts';
import { keys } from '../../../shared/store/keys.ts';
import { type RuleActionKey, ruleActionSteps } from '../../../shared/store/rule-writes.ts';
import { noteDeclarationRequired } from '../../../shared/webhooks/declaration-required.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { editCampaignBudget, updateCampaignStatus } from '../control/campaign-control.ts';
import { decide, failure, QuotaSpent, type RulePlatform, type SpendCalls } from './rule-evaluation.ts';

/**
 * A rule's change to one campaign (docs/rules.md): made by a rule's run, by the approval of a rule's
 * proposal, or set back by the undo of a run. Each is an exactly-once step (core/exactly-once.ts) keyed
 * by (rule, run, campaign), where a proposal's run id is the proposal and an undo's is `undo_<run>`, and
 * each goes through the campaign-control code the HTTP operations use (the same refusals, history and
 * audit).
 */
/** What of a rule its action uses: its action and cooldown as they are (a run) or were (a proposal's). */
export type ActingRule = Pick<RuleDefinition, 'action' | 'cooldownHours'> & { ruleId: string };

/** What every action of one rule's run works with. */
export interface ActionContext {
  tenantId: string;
  userId: string;
  rule: ActingRule;
  runId: string;
  platform: RulePlatform<unknown>;
  session: unknown;
  /** the ad account's: the daily cap counts its days */
  timeZone: string;
  spend: SpendCalls;
  /** the world an action touches besides the platform: the store's, or a unit test's fakes */
  ports?: ActionPorts;
  /** an approval's: the change a person approved; a fresh decision that differs is STALE_PROPOSAL */
  approved?: { proposalId: string; change: PlannedChange };
  /** who the change is recorded as (a person approving, an undo); the rule itself by default */
  as?: { source: HistorySource; scope?: AuditScope };
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
  const { tenantId, userId, rule, runId, platform, session, timeZone, spend } = context;
  const ports = context.ports ?? storeActionPorts;
  const type = rule.action.type;
  let decision: Awaited<ReturnType<typeof decide>> | undefined;
  let applied: unknown;
  const step = await ports.underLease(
    // one delivery's own: a second live delivery of the same step waits for it, then finds the step completed
    { tenantId, platform: platform.control.platform, campaignId, holder: `action_${runId}_${randomBytes(6).toString('hex')}` },
    () =>
      exactlyOnce<RuleActionKey, PlannedChange, RuleActionOutcome>({
        store: ports.steps,
        key: { tenantId, ruleId: rule.ruleId, runId, campaignId },
        decide: async () => {
          if (!(await spend(1))) throw new QuotaSpent();
          decision = await ports.decide(platform, session, { tenantId, userId, ruleId: rule.ruleId, rule, timeZone }, campaignId);
          if (decision.kind === 'fail')
            return { nothing: { campaignId, type, outcome: 'failed' as const, error: { code: decision.code, message: decision.message } } };
          if (context.approved) return approvedIntent(context.approved, decision, campaignId, type);
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
      .announce(tenantId, {
        userId,
        platform: platform.control.platform,
        campaignId,
        ruleId: rule.ruleId,
        ...(context.approved ? { proposalId: context.approved.proposalId } : {}),
        change: applied,
      })
      .catch((error: unknown) => log().warn('optimization.applied not stored', { reason: (error as Error).name }));
  return { outcome: step.result, change: step.intent };
}

/**
 * An approval goes ahead only with the change the person approved: the guardrails hold again, and the
 * campaign still holds `from`, so a fresh decision is that very change; anything else is STALE_PROPOSAL.
 */
function approvedIntent(
  approved: NonNullable<ActionContext['approved']>,
  decision: Awaited<ReturnType<typeof decide>>,
  campaignId: string,
  type: string,
): { intent: PlannedChange } | { nothing: RuleActionOutcome } {
  const wanted = approved.change;
  const stale = (why: string) => ({
    nothing: {
      campaignId,
      type,
      from: wanted.from,
      to: wanted.to,
      outcome: 'failed' as const,
      error: { code: 'STALE_PROPOSAL', message: `The proposal no longer holds: ${why}; nothing was changed.` },
    },
  });
  if (decision.kind === 'act' && decision.change.field === wanted.field && decision.change.from === wanted.from && decision.change.to === wanted.to)
    return { intent: wanted };
  if (decision.kind === 'act') return stale(`the campaign holds ${decision.change.from} now, not ${wanted.from}`);
  if (decision.kind === 'skip') return stale(decision.reason);
  return { nothing: { campaignId, type, from: wanted.from, to: wanted.to, outcome: 'failed', error: { code: decision.code, message: decision.message } } };
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
export async function apply(
  { tenantId, userId, rule, runId, platform, session, as }: ActionContext,
  campaignId: string,
  campaign: Parameters<typeof updateCampaignStatus>[2]['campaign'],
  change: { field: 'status' | 'dailyBudget'; from: string; to: string },
): Promise<RuleActionOutcome & { change?: unknown }> {
  const { control } = platform;
  const action = { decided: change, recordedOnce: recordedOnce(keys.ruleAction(tenantId, rule.ruleId, runId, campaignId)) };
  const base = { campaignId, type: rule.action.type, from: change.from, to: change.to };
  const source = as?.source ?? { type: 'rule' as const, ruleId: rule.ruleId };
  const scope = as?.scope ?? { actor: { type: 'rule' as const, id: rule.ruleId } };
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
    // a person's approval or undo is not lost to a throttled, lost or unexpected answer: it stays begun, and a repeat reads back and finishes it
    if (as && !(error instanceof ServiceError && error.status === 200)) throw error;
    const { code, message } = failure(error);
    if (code === 'CAMPAIGN_REMOVED') return { ...base, outcome: 'skipped', reason: 'the campaign is removed; nothing acts on it' };
    await noteDeclarationRequired(tenantId, userId, error);
    return { ...base, outcome: 'failed', error: { code, message } };
  }
}
