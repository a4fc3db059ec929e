import { createHash } from 'node:crypto';
import { clock } from '../../../shared/core/clock.ts';
import type { PlannedChange } from '../../../shared/rules/evaluation.ts';
import { DEFAULT_APPROVAL_HOURS, type Evaluation, type RuleActionOutcome } from '../../../shared/schemas/rules.ts';
import { storeProposal } from '../../../shared/store/proposal-writes.ts';
import { pendingProposal, type StoredProposal } from '../../../shared/store/proposals.ts';
import { recordNotice } from '../../../shared/store/rule-writes.ts';
import type { WebhookEvent } from '../../../shared/store/webhook-events.ts';
import { newWebhookEvent } from '../../../shared/webhooks/events.ts';
import { announceWebhookEvent } from '../../../shared/webhooks/queue.ts';
import type { ActionContext } from './rule-actions.ts';
import { decide, QuotaSpent } from './rule-evaluation.ts';

/**
 * A rule's match in mode approve or notify (docs/rules.md, "Rules that ask first"). In approve, the
 * change is decided as a run would (a fresh read, the guardrails) and stored as a proposal for a person
 * to decide, with its `optimization.proposed` event, unless one of the rule for the campaign waits
 * already. In notify, nothing is read or changed: the match is told once, `optimization.matched`.
 */
type Responded = { outcome: RuleActionOutcome; change?: PlannedChange };

/** A proposal's id: its run's time and a digest of (rule, run, campaign), so a run delivered again proposes the same one. */
export const proposalIdOf = (ruleId: string, runId: string, campaignId: string) =>
  `prp_${runId.slice(4, 17)}_${createHash('sha256').update(`${ruleId}|${runId}|${campaignId}`).digest('hex').slice(0, 12)}`;

/** Stored with what announces it: queued at once, or by the webhook sweep after a failure to queue. */
async function queued(tenantId: string, event: WebhookEvent | undefined): Promise<void> {
  if (event) await announceWebhookEvent({ tenantId, sk: event.sk });
}

export async function propose(context: ActionContext, evaluation: Evaluation): Promise<Responded> {
  const { tenantId, userId, rule, runId, platform, session, timeZone, spend } = context;
  const { campaignId } = evaluation;
  const type = rule.action.type;
  const proposalId = proposalIdOf(rule.ruleId, runId, campaignId);
  const waiting = await pendingProposal(tenantId, userId, rule.ruleId, campaignId);
  if (waiting && waiting.proposalId !== proposalId && waiting.expiresAtMs > clock.now())
    return { outcome: { campaignId, type, outcome: 'skipped', reason: `proposal ${waiting.proposalId} of this rule for the campaign waits for a decision` } };
  if (!(await spend(1))) throw new QuotaSpent();
  const decision = await decide(platform, session, { tenantId, userId, ruleId: rule.ruleId, rule, timeZone }, campaignId);
  if (decision.kind === 'fail') return { outcome: { campaignId, type, outcome: 'failed', error: { code: decision.code, message: decision.message } } };
  const shown = decision.change ? { from: decision.change.from, to: decision.change.to } : {};
  if (decision.kind === 'skip')
    return { outcome: { campaignId, type, ...shown, outcome: 'skipped', reason: decision.reason }, ...(decision.change ? { change: decision.change } : {}) };
  const now = clock.now();
  const expiresAtMs = now + (rule.action.approvalHours ?? DEFAULT_APPROVAL_HOURS) * 3_600_000;
  const action = { type, from: decision.change.from, to: decision.change.to };
  const proposal: StoredProposal = {
    proposalId,
    ruleId: rule.ruleId,
    userId,
    platform: platform.control.platform,
    campaignId,
    runId,
    action,
    metrics: evaluation.metrics,
    state: 'pending',
    createdAt: new Date(now).toISOString(),
    expiresAtMs,
    change: decision.change,
    rule: { action: rule.action, cooldownHours: rule.cooldownHours },
  };
  const event = await newWebhookEvent(tenantId, 'optimization.proposed', {
    userId,
    platform: platform.control.platform,
    ruleId: rule.ruleId,
    campaignId,
    proposalId,
    action,
    expiresAt: new Date(expiresAtMs).toISOString(),
  });
  const stored = await storeProposal(tenantId, proposal, event);
  if (stored === 'pending')
    return { outcome: { campaignId, type, ...shown, outcome: 'skipped', reason: 'another proposal of this rule for the campaign waits for a decision' } };
  if (stored === 'created') await queued(tenantId, event);
  return { outcome: { campaignId, type, ...shown, outcome: 'proposed', proposalId }, change: decision.change };
}

export async function notifyMatch(context: ActionContext, evaluation: Evaluation): Promise<Responded> {
  const { tenantId, userId, rule, runId, platform } = context;
  const { campaignId, metrics } = evaluation;
  const outcome: RuleActionOutcome = { campaignId, type: rule.action.type, outcome: 'notified' };
  const event = await newWebhookEvent(tenantId, 'optimization.matched', {
    userId,
    platform: platform.control.platform,
    ruleId: rule.ruleId,
    campaignId,
    runId,
    metrics,
  });
  if (await recordNotice(tenantId, rule.ruleId, runId, campaignId, outcome, event)) await queued(tenantId, event);
  return { outcome };
}
