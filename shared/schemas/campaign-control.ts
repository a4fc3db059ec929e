import * as z from 'zod';
import type { AuditSpec } from '../core/audit.ts';
import { AMOUNT_PATTERN } from '../core/money.ts';
import { userIdSchema, type Output } from './common.ts';

/**
 * Campaign control on every platform (docs/operations.md, "Campaign control"): the same two requests
 * and answers for `/social`, `/searchads` and `/professional`.
 */
export const controlCampaignIdSchema = z
  .string()
  .trim()
  // the professional platform's URN form is accepted and reduced to its number
  .transform((id) => id.replace(/^urn:li:sponsoredCampaign:/, ''))
  .pipe(z.string().regex(/^\d{1,20}$/, 'must be the campaign’s numeric id'))
  .describe('The platform’s campaign id (digits; the professional platform’s `urn:li:sponsoredCampaign:…` form is accepted).');

export const CONTROL_STATUSES = ['ACTIVE', 'PAUSED', 'DELETE'] as const;
export const CAMPAIGN_STATUSES = ['ACTIVE', 'PAUSED', 'REMOVED'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

const validateOnly = z
  .boolean()
  .default(false)
  .describe('Check everything (the platform’s own dry run where it has one) and change nothing; the answer says what would change.');

export const campaignStatusFields = {
  userId: userIdSchema,
  campaignId: controlCampaignIdSchema,
  status: z
    .enum(CONTROL_STATUSES)
    .describe('`DELETE` is irreversible: social deletes, search ads removes, professional deletes a draft and archives any other.'),
  validateOnly,
};

/** A positive amount in major units, as a number or a decimal string; kept as the exact string. */
const POSITIVE_MESSAGE = 'must be a positive amount in major units, such as 75, "75.5" or "75.50"';
export const amountSchema = z
  // the document states what the transform checks: a positive number, or a decimal string that is not zero
  .union([
    z.number().positive(POSITIVE_MESSAGE),
    z
      .string()
      .trim()
      .regex(/^(?!0+(?:\.0*)?$)\d+(?:\.\d+)?$/, POSITIVE_MESSAGE),
  ])
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value;
    if (!AMOUNT_PATTERN.test(text) || /^0(\.0*)?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: POSITIVE_MESSAGE });
      return z.NEVER;
    }
    // no currency's daily budget can be more (1,000,000,000 minor units of a currency without decimals); each currency's own ceiling is checked after the read
    if (Number(text.split('.')[0]) > 1_000_000_000) {
      ctx.addIssue({ code: 'custom', message: 'must be at most 1,000,000,000 minor units of the account’s currency' });
      return z.NEVER;
    }
    return text;
  })
  .describe('The new daily budget in the ad account’s currency, major units; at most as many decimals as the currency has (USD 2, JPY 0).');

export const editCampaignFields = {
  userId: userIdSchema,
  campaignId: controlCampaignIdSchema,
  editLevel: z.literal('BUDGET').describe('What is edited: the campaign’s daily budget.'),
  amount: amountSchema,
  validateOnly,
  allowSharedBudget: z.boolean().default(false).describe('Search ads: change a budget other campaigns share too (each of them changes).'),
};

export const moneySchema = z.object({ amount: z.string().describe('Major units, with the currency’s decimals.'), currency: z.string() });

export const campaignStatusResultSchema = z.object({
  campaignId: z.string(),
  status: z.enum(CAMPAIGN_STATUSES).describe('After the call (or, for a dry run, what it would be).'),
  previousStatus: z.enum(CAMPAIGN_STATUSES),
  platformStatus: z.string().describe('The platform’s own word after the call: ENABLED, ARCHIVED, DELETED, …'),
  changed: z.boolean().describe('false: the campaign already had this status (nothing was sent). With validateOnly: whether the change would be made.'),
  validateOnly: z.boolean().optional(),
});

export const campaignBudgetResultSchema = z.object({
  campaignId: z.string(),
  dailyBudget: moneySchema,
  previousDailyBudget: moneySchema,
  changed: z.boolean().describe('false: the budget already had this amount (nothing was sent). With validateOnly: whether the change would be made.'),
  validateOnly: z.boolean().optional().describe('true: a dry run; nothing was written.'),
  sharedWith: z.number().int().optional().describe('Search ads, allowSharedBudget: how many other campaigns the shared budget also changed for.'),
});

export type UpdateCampaignStatusInput = Output<typeof campaignStatusFields>;
export type EditCampaignInput = Output<typeof editCampaignFields>;

/** The audit events of campaign control, the same on every platform (a dry run records nothing). */
export const campaignStatusAudit: AuditSpec<UpdateCampaignStatusInput, z.output<typeof campaignStatusResultSchema>> = {
  action: 'campaign.status_changed',
  target: (input) => ({ type: 'campaign', id: input.campaignId }),
  changes: (input, result) => ({
    status: { ...(result ? { from: result.previousStatus } : {}), to: result?.status ?? (input.status === 'DELETE' ? 'REMOVED' : input.status) },
  }),
  writes: (input) => !input.validateOnly,
};

export const campaignBudgetAudit: AuditSpec<EditCampaignInput, z.output<typeof campaignBudgetResultSchema>> = {
  action: 'campaign.budget_changed',
  target: (input) => ({ type: 'campaign', id: input.campaignId }),
  changes: (input, result) => ({ dailyBudget: result ? { from: result.previousDailyBudget, to: result.dailyBudget } : { to: { amount: input.amount } } }),
  writes: (input) => !input.validateOnly,
};
