import type { Context } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { auditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { exactlyOnce } from '../../../shared/core/exactly-once.ts';
import { ServiceError } from '../../../shared/core/errors.ts';
import { fromUnits } from '../../../shared/core/money.ts';
import type { ControlledCampaign } from '../../../shared/platforms/campaign-control.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';
import type { PlannedChange } from '../../../shared/rules/evaluation.ts';
import type { RuleActionOutcome } from '../../../shared/schemas/rules.ts';
import { underCampaignLease } from '../../../shared/store/campaign-changes.ts';
import { type RuleActionKey, ruleActionSteps } from '../../../shared/store/rule-writes.ts';
import { type RunUndo, storeRunUndo } from '../../../shared/store/rule-undos.ts';
import { findRuleRun } from '../../../shared/store/rules.ts';
import { findProposal } from '../../../shared/store/proposals.ts';
import { moveProposal, releasePending } from '../../../shared/store/proposal-writes.ts';
import type { User } from '../../../shared/store/users.ts';
import { type ActionContext, apply } from './rule-actions.ts';
import { failure } from './rule-evaluation.ts';

/**
 * Undoing a rule run (docs/rules.md, "Undo"): every change the run applied (or proposed and a person
 * approved) is set back, newest first, each only while the campaign still holds the value the rule set
 * (else skipped, "changed since"), through campaign control with the history source `{type: "undo", runId}` and the caller as the actor. Each set
 * back is an exactly-once step keyed by (rule, `undo_<run>`, campaign) under the campaign's lease, so
 * racing or repeated undos write once; the first answer to be stored is the answer of every repeat.
 */
export const UNDO_DAYS = 7;
export const RUN_ID = /^run_(\d{13})_([0-9a-f]{24})$/;

/** What the undo of a run sets back, in order (the undo job's run reads it again, each time it runs). */
export async function runChanges(tenantId: string, userId: string, request: { runId: string; ruleId: string }): Promise<RuleActionOutcome[]> {
  const [, dueMs] = RUN_ID.exec(request.runId) ?? [];
  const found = await findRuleRun(tenantId, userId, request.runId, request.ruleId, Number(dueMs));
  return found ? changesOf(tenantId, userId, found.run.actions) : [];
}

/** One change of the run set back (its step is once per (rule, undo of the run, campaign)), in the caller's name. */
export function setBackOne(
  tenantId: string,
  user: User,
  request: { runId: string; ruleId: string; platform: keyof typeof platformAdapters },
  context: Context,
  action: RuleActionOutcome,
): Promise<RuleActionOutcome> {
  const platform = platformAdapters[request.platform];
  const base: ActionContext = {
    tenantId,
    userId: user.userId,
    rule: { ruleId: request.ruleId, action: { type: action.type } as never, cooldownHours: 24 },
    runId: `undo_${request.runId}`,
    platform,
    session: platform.session(user, context),
    timeZone: 'UTC',
    spend: async () => true,
    as: { source: { type: 'undo', runId: request.runId }, ...(auditScope() ? { scope: auditScope() } : {}) },
  };
  return setBack(base, action);
}

/** The undo's answer once every change is set back: stored, unless another undo of the run stored its own first. */
export async function finishUndo(tenantId: string, runId: string, actions: RuleActionOutcome[]): Promise<RunUndo> {
  const undo: RunUndo = { runId, status: 'undone', undoneAt: new Date(clock.now()).toISOString(), actions };
  return storeRunUndo(tenantId, undo);
}

/** The run's pending proposals end `expired`, their (rule, campaign) free for a new one; a decided one is left as it is. */
export async function withdrawPending(tenantId: string, userId: string, actions: readonly RuleActionOutcome[]): Promise<void> {
  for (const action of actions) {
    if (action.outcome !== 'proposed' || !action.proposalId) continue;
    const proposal = await findProposal(tenantId, userId, action.proposalId);
    if (proposal?.state !== 'pending') continue;
    const withdrawn = {
      finishedAt: new Date(clock.now()).toISOString(),
      error: { code: 'RUN_UNDONE', message: `Its rule run ${proposal.runId} was undone, so the proposal was withdrawn; nothing was changed.` },
    };
    if (await moveProposal(tenantId, userId, proposal.proposalId, 'pending', 'expired', withdrawn)) await releasePending(tenantId, proposal);
  }
}

/**
 * What the run changed, newest first: the changes it applied (in its order), and those of its proposals
 * a person approved and that were applied after it (in the order they were).
 */
export async function changesOf(tenantId: string, userId: string, actions: readonly RuleActionOutcome[]): Promise<RuleActionOutcome[]> {
  const approved: Array<{ at: string; action: RuleActionOutcome }> = [];
  for (const action of actions) {
    if (action.outcome !== 'proposed' || !action.proposalId) continue;
    const proposal = await findProposal(tenantId, userId, action.proposalId);
    if (proposal?.state === 'applied')
      approved.push({ at: proposal.finishedAt ?? '', action: { ...action, from: proposal.action.from, to: proposal.action.to, outcome: 'applied' } });
  }
  approved.sort((a, b) => b.at.localeCompare(a.at));
  const ran = actions.filter((action) => action.outcome === 'applied').reverse();
  return [
    ...approved.map(({ action }) => {
      const { proposalId: _id, ...change } = action;
      return change;
    }),
    ...ran,
  ];
}

/** The value a campaign holds now, in the words of a rule's change. */
function holds(campaign: ControlledCampaign, field: PlannedChange['field']): string | undefined {
  if (field === 'status') return campaign.status;
  return campaign.budget.kind === 'elsewhere' ? undefined : fromUnits(campaign.budget.units, campaign.decimals);
}

/** One applied change set back, once, while the campaign still holds what the rule set. */
async function setBack(context: ActionContext, action: RuleActionOutcome): Promise<RuleActionOutcome> {
  const { tenantId, platform, session } = context;
  const { campaignId, type } = action;
  const field: PlannedChange['field'] = type === 'PAUSE' || type === 'ACTIVATE' ? 'status' : 'dailyBudget';
  const [from, to] = [String(action.to), String(action.from)];
  let campaign: ControlledCampaign | undefined;
  const step = await underCampaignLease({ tenantId, platform: platform.control.platform, campaignId, holder: `undo_${randomBytes(6).toString('hex')}` }, () =>
    exactlyOnce<RuleActionKey, PlannedChange, RuleActionOutcome>({
      store: ruleActionSteps,
      key: { tenantId, ruleId: context.rule.ruleId, runId: context.runId, campaignId },
      decide: async () => {
        // what the set-back answers when it does nothing: the campaign's refusal, or why it is left alone
        const left = (outcome: Pick<RuleActionOutcome, 'outcome' | 'error' | 'reason'>) => ({ nothing: { campaignId, type, from, to, ...outcome } });
        try {
          campaign = await platform.control.read(session, campaignId);
        } catch (error) {
          // a refusal is this campaign's answer; a throttled or lost read fails the whole undo, which a repeat does again
          if (!(error instanceof ServiceError && error.status === 200)) throw error;
          const { code, message } = failure(error);
          return left({ outcome: 'failed', error: { code, message } });
        }
        if (!campaign)
          return left({ outcome: 'failed', error: { code: 'CAMPAIGN_NOT_FOUND', message: `Campaign ${campaignId} is not in the user’s connected account.` } });
        const now = holds(campaign, field);
        if (campaign.status === 'REMOVED' || now !== from)
          return left({ outcome: 'skipped', reason: `changed since: the campaign holds ${now ?? campaign.platformStatus}, not the ${from} the rule set` });
        return { intent: { field, from, to } };
      },
      perform: async (intent) => {
        const { change: _change, ...logged } = await apply(context, campaignId, campaign, intent);
        return logged;
      },
    }),
  );
  if (step.by === 'busy') return { campaignId, type, from, to, outcome: 'skipped', reason: 'another undo of this run is setting the campaign back' };
  return step.result;
}
