import * as z from 'zod';
import { PLATFORMS } from '../core/errors.ts';
import { proposalSchema } from './proposals.ts';
import type { ErrorField } from '../core/error-field-names.ts';

/**
 * The schema of each field an error's answer may carry beside `success`, `error` and `code`, for the
 * OpenAPI document's error envelopes; the envelope lets through the same names
 * (shared/core/error-field-names.ts) and nothing else a failure holds.
 */
const money = z.object({ amount: z.string(), currency: z.string() }).strict();

export const ERROR_FIELDS: Readonly<Record<ErrorField, z.ZodType>> = {
  details: z
    .array(
      z
        .object({
          path: z.string(),
          message: z.string(),
          code: z
            .string()
            .optional()
            .describe('A launch’s refusal before any job: BUDGET_TOO_LOW, INVALID_AMOUNT, MEDIA_NOT_FOUND (as its dry run names them).'),
          minimum: money.optional().describe('BUDGET_TOO_LOW: the smallest daily budget the ad account takes.'),
        })
        .strict(),
    )
    .describe('INVALID_REQUEST: one entry per problem.'),
  platform: z.enum(PLATFORMS).describe('The platform that refused, or whose grant or connection is at issue.'),
  platformCode: z.union([z.string(), z.number()]).describe('The platform’s own error code.'),
  platformSubcode: z.number().describe('Social: the platform’s error subcode.'),
  platformStatus: z
    .union([z.string(), z.number()])
    .describe('The platform’s HTTP status of its refusal (professional), or the campaign’s own status word (CAMPAIGN_REMOVED).'),
  serviceErrorCode: z.number().describe('Professional: the platform’s service error code.'),
  fieldPath: z.string().describe('The field of the platform’s request its refusal names.'),
  requestId: z.string().describe('Search ads: the platform’s request id, for its support.'),
  fbtraceId: z.string().describe('Social: the platform’s trace id, for its support.'),
  minimum: money.describe('BUDGET_TOO_LOW: the smallest daily budget, when the platform gives it.'),
  budgetIs: z.string().describe('BUDGET_NOT_ON_CAMPAIGN: where the budget is instead.'),
  sharedWith: z.number().describe('SHARED_BUDGET: how many other campaigns use the budget.'),
  scope: z.string().describe('SCOPE_MISSING: the permission the connection lacks (a new connect link asks for it).'),
  campaignIds: z
    .array(z.string())
    .describe(
      'EU_POLITICAL_DECLARATION_REQUIRED: the account’s campaigns that lack the declaration (declare them with /searchads/declare_eu_political_advertising).',
    ),
  runningJobId: z.string().describe('LAUNCH_IN_PROGRESS: the launch of the same name still running (named to its own tenant only).'),
  limit: z.number().describe('RULE_LIMIT_REACHED: how many rules a user may have.'),
  retryAfter: z
    .number()
    .describe(
      'PLATFORM_RATE_LIMITED, QUOTA_EXCEEDED: seconds to wait before trying again (also the Retry-After header); QUOTA_EXCEEDED: until Google’s next day (midnight Pacific), when the tenant’s share is whole again.',
    ),
  share: z.number().describe('QUOTA_EXCEEDED: how many of the search-ads project’s daily operations one tenant may spend.'),
  proposal: proposalSchema.describe('STALE_PROPOSAL, PROPOSAL_EXPIRED, PROPOSAL_DECIDED, or a refusal of an approved change: the proposal as it is now.'),
  supported: z.array(z.string()).describe('UNSUPPORTED_LEVEL, UNSUPPORTED_BREAKDOWN: the levels, or the breakdowns at that level, the platform offers.'),
  destinationId: z.string().describe('DESTINATION_NOT_FOUND: the destination of the platform named in `platform` that the connection cannot send to.'),
  audienceId: z.string().describe('A social audience upload that failed part-way: the audience the rows went to.'),
  session_id: z
    .string()
    .describe('A social audience upload that failed part-way: the platform’s upload session (a retry with the same Idempotency-Key resumes it).'),
  rows_landed: z.number().describe('A social audience upload that failed part-way: how many rows the platform had acknowledged.'),
  rows_total: z.number().describe('A social audience upload that failed part-way: how many usable rows the file has.'),
};
