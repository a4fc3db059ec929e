import * as z from 'zod';
import type { AuditSpec } from '../core/audit.ts';
import { PLATFORMS } from '../core/errors.ts';
import { paginationSchema, userIdSchema } from './common.ts';
import { ruleIdSchema } from './ids.ts';

/**
 * Proposals (docs/rules.md, "Rules that ask first"): what a rule in mode `approve` would change on a
 * campaign, waiting for a person. A proposal is pending until it is decided or it expires; an approved
 * one is applied once through campaign control, and ends applied or failed.
 */
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'applied', 'failed'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const proposalIdSchema = z
  .string()
  .regex(/^prp_\d{13}_[0-9a-f]{12}$/, 'must be a proposal id as list_proposals or optimization.proposed gave it')
  .describe('The proposal’s id.');

export const proposalSchema = z.object({
  proposalId: z.string(),
  ruleId: z.string(),
  userId: z.string(),
  platform: z.enum(PLATFORMS),
  campaignId: z.string(),
  runId: z.string().describe('The rule run that proposed it.'),
  action: z
    .object({ type: z.string(), from: z.string(), to: z.string() })
    .describe('The change: a status (ACTIVE, PAUSED) or a daily budget in major units, from what the campaign held to what the rule sets.'),
  metrics: z.record(z.string(), z.string().nullable()).describe('The metrics the rule matched on, as its run log shows them.'),
  status: z.enum(PROPOSAL_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string().describe('A pending proposal not decided by then expires.'),
  decidedAt: z.string().optional(),
  finishedAt: z.string().optional().describe('When an approved proposal was applied, or failed.'),
  error: z
    .object({ code: z.string(), message: z.string() })
    .optional()
    .describe('Why an approved proposal failed (STALE_PROPOSAL, a platform’s refusal), or why an expired one was withdrawn (RUN_UNDONE: its run was undone).'),
});
export type Proposal = z.output<typeof proposalSchema>;

export const listProposalsFields = {
  userId: userIdSchema,
  status: z.enum(PROPOSAL_STATUSES).optional(),
  ruleId: z.optional(ruleIdSchema),
  pagination: paginationSchema,
};

export const decideProposalFields = {
  userId: userIdSchema,
  proposalId: proposalIdSchema,
  decision: z.enum(['approve', 'reject']),
};

export const proposalAudit: AuditSpec<{ proposalId: string; decision: 'approve' | 'reject' }, { proposal?: Proposal }> = {
  action: (input) => (input.decision === 'approve' ? 'proposal.approved' : 'proposal.rejected'),
  target: (input) => ({ type: 'proposal', id: input.proposalId }),
  changes: (_input, result) => (result?.proposal ? { status: { from: 'pending', to: result.proposal.status } } : undefined),
};
