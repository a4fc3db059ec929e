import type { Context } from 'aws-lambda';
import { type Answer, type AuditUnit, auditScope, unchanged } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { isInBandCode } from '../../../shared/core/error-table.ts';
import { NotFound, PlatformNotConnected, ProposalRefused } from '../../../shared/core/errors.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';
import type { Proposal } from '../../../shared/schemas/proposals.ts';
import { forgetApproval, moveProposal, noteApproval, releasePending } from '../../../shared/store/proposal-writes.ts';
import { findUser } from '../../../shared/store/users.ts';
import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { log } from '../../../shared/core/logger.ts';
import { findProposal, proposalOf, type StoredProposal } from '../../../shared/store/proposals.ts';
import type { User } from '../../../shared/store/users.ts';
import { actOn } from './rule-actions.ts';

/**
 * Deciding a proposal (docs/rules.md, "Rules that ask first"). A rejection ends it. An approval moves it
 * to approved (the decision and its audit event in one conditional write, so of racing decisions one
 * wins), then applies it as a rule's action keyed by the proposal: under the campaign's lease, from a
 * fresh read through the guardrails, only while the campaign still holds `from` (else STALE_PROPOSAL),
 * exactly once however many approvals race or repeat. A repeat of an approval whose process died
 * finishes it: the platform's write is read back, never sent blind.
 */
const notFound = (proposalId: string) => new NotFound(`No proposal ${proposalId} for this user.`);

async function proposalFor(tenantId: string, userId: string, proposalId: string): Promise<StoredProposal> {
  const stored = await findProposal(tenantId, userId, proposalId);
  if (!stored) throw notFound(proposalId);
  return stored;
}

/** How an ended proposal answers a decision: as it is, or refused with why. */
function answered(proposal: Proposal, decision: 'approve' | 'reject'): Answer<{ proposal: Proposal }> {
  const wanted = decision === 'approve' ? 'applied' : 'rejected';
  if (proposal.status === wanted) return unchanged({ proposal });
  if (proposal.status === 'expired')
    throw new ProposalRefused(
      'PROPOSAL_EXPIRED',
      proposal.error?.code === 'RUN_UNDONE'
        ? `Proposal ${proposal.proposalId}: ${proposal.error.message}`
        : `Proposal ${proposal.proposalId} expired at ${proposal.expiresAt} without a decision; nothing was changed.`,
      proposal,
    );
  if (proposal.status === 'failed' && decision === 'approve')
    throw new ProposalRefused(
      isInBandCode(proposal.error?.code) ? proposal.error.code : 'PROPOSAL_DECIDED',
      proposal.error?.message ?? `Proposal ${proposal.proposalId} was approved and failed; nothing was changed.`,
      proposal,
    );
  throw new ProposalRefused('PROPOSAL_DECIDED', `Proposal ${proposal.proposalId} is ${proposal.status} already; a decision cannot change that.`, proposal);
}

export async function decideProposal(
  tenantId: string,
  user: User,
  input: { proposalId: string; decision: 'approve' | 'reject' },
  context: Context,
  audit: AuditUnit,
): Promise<Answer<{ proposal: Proposal }>> {
  const { userId } = user;
  for (;;) {
    const stored = await proposalFor(tenantId, userId, input.proposalId);
    const proposal = proposalOf(stored);
    if (proposal.status === 'approved') {
      if (input.decision === 'reject') return answered(proposal, 'reject');
      return apply(tenantId, user, stored, context);
    }
    if (proposal.status !== 'pending') {
      if (proposal.status === 'expired' && stored.state === 'pending') await moveProposal(tenantId, userId, stored.proposalId, 'pending', 'expired');
      return answered(proposal, input.decision);
    }
    const decidedAtMs = clock.now();
    const decidedAt = new Date(decidedAtMs).toISOString();
    const to = input.decision === 'approve' ? 'approved' : 'rejected';
    const after = { ...proposal, status: to, decidedAt } as Proposal;
    const underWay = { tenantId, userId, proposalId: stored.proposalId };
    // an approval is noted first: if its process dies before it is applied, the scheduler's sweep finishes it
    if (to === 'approved') await noteApproval(decidedAtMs, underWay);
    // the decision's audit event goes with it; a lost race reads the proposal again
    if (!(await moveProposal(tenantId, userId, stored.proposalId, 'pending', to, { decidedAt }, audit.event({ proposal: after })))) {
      if (to === 'approved') await forgetApproval(decidedAtMs, underWay);
      continue;
    }
    if (to === 'rejected') {
      await releasePending(tenantId, stored);
      return unchanged({ proposal: after }); // its event is stored with the decision
    }
    return apply(tenantId, user, { ...stored, state: 'approved', decidedAt }, context);
  }
}

/** The approved change, made once: its outcome ends the proposal applied or failed. */
async function apply(tenantId: string, user: User, stored: StoredProposal, context: Context): Promise<Answer<{ proposal: Proposal }>> {
  const platform = platformAdapters[stored.platform];
  if (!user.connections[stored.platform]) throw new PlatformNotConnected(stored.platform);
  platform.canReadMetrics?.(user);
  const session = platform.session(user, context);
  const { timeZone } = await platform.metrics.account(session);
  const { outcome } = await actOn(
    {
      tenantId,
      userId: user.userId,
      rule: { ruleId: stored.ruleId, ...stored.rule },
      runId: stored.proposalId,
      platform,
      session,
      timeZone,
      spend: async () => true, // a person's decision: not the optimizer's share of the quota
      approved: { proposalId: stored.proposalId, change: stored.change },
      as: { source: { type: 'rule', ruleId: stored.ruleId, proposalId: stored.proposalId }, ...withScope() },
    },
    stored.campaignId,
  );
  const finishedAt = new Date(clock.now()).toISOString();
  if (outcome.outcome === 'applied') await moveProposal(tenantId, user.userId, stored.proposalId, 'approved', 'applied', { finishedAt });
  else if (outcome.outcome === 'failed' && outcome.error)
    await moveProposal(tenantId, user.userId, stored.proposalId, 'approved', 'failed', { finishedAt, error: outcome.error });
  const now = proposalOf(await proposalFor(tenantId, user.userId, stored.proposalId));
  if (now.status !== 'approved') {
    await releasePending(tenantId, stored);
    if (stored.decidedAt) await forgetApproval(Date.parse(stored.decidedAt), { tenantId, userId: user.userId, proposalId: stored.proposalId });
  }
  return now.status === 'approved' || now.status === 'applied' ? unchanged({ proposal: now }) : answered(now, 'approve');
}

/** The request's own audit scope (its API key as the actor), so the change is recorded as the person's. */
const withScope = () => {
  const scope = auditScope();
  return scope ? { scope } : {};
};

/**
 * An approval whose process died, finished as its person's repeat would finish it: the platform's
 * write read back, never sent blind, recorded once. A proposal no longer approved (applied, failed,
 * expired, or gone) only has its note forgotten. The change is recorded with the sweep as its actor.
 */
export async function finishApproval(which: { tenantId: string; userId: string; proposalId: string }, context: Context): Promise<void> {
  const { tenantId, userId, proposalId } = which;
  const stored = await findProposal(tenantId, userId, proposalId);
  const user = await findUser(tenantId, userId);
  if (stored?.state !== 'approved' || !user?.connections[stored.platform]) {
    if (stored?.decidedAt) await forgetApproval(Date.parse(stored.decidedAt), which);
    if (stored?.state === 'approved') log().warn('an approval could not be finished: its user or connection is gone', { proposalId });
    return;
  }
  const finished = await withAuditScope({ actor: systemActor('proposal_sweep') }, () => apply(tenantId, user, stored, context));
  log().info('an approval whose process died was finished', { proposalId, status: unwrapStatus(finished) });
}

const unwrapStatus = (answer: Answer<{ proposal: Proposal }>) => ('proposal' in answer ? answer.proposal.status : undefined);
