import type { Context } from 'aws-lambda';
import type { AuditUnit } from '../../../shared/core/audit.ts';
import { InvalidRequest, LaunchInProgress } from '../../../shared/core/errors.ts';
import { isoDecimals, toUnits } from '../../../shared/core/money.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { LaunchJobRequest } from './launch-records.ts';
import { claimLaunchName, type LaunchName, releaseLaunchName } from '../../../shared/store/launch-claims.ts';
import type { User } from '../../../shared/store/users.ts';
import { MAX_DAILY_BUDGET_MINOR_UNITS } from '../control/campaign-control.ts';
import { newJobId, startJob } from '../jobs/start-job.ts';

/** What both platforms' create_campaign share: the call, the answer, the budget check and the job they queue. */
export interface LaunchCall<Input> {
  tenantId: string;
  user: User;
  input: Input;
  context: Context;
  audit: AuditUnit;
}

export interface LaunchIssue {
  field: string;
  code: string;
  message: string;
  minimum?: { amount: string; currency: string };
}

export type LaunchAnswer = { jobId: string; status: Job['status'] } | { valid: boolean; issues: LaunchIssue[]; checkedBy?: 'service' };

/**
 * The daily budget in the platform's units of the account's currency, and what is wrong with it
 * (docs/decisions.md, "One dry-run shape"): INVALID_AMOUNT for more decimals than the currency takes
 * there or more than the largest budget; BUDGET_TOO_LOW, with the minimum, below the account's minimum.
 */
export function budgetIssues(amount: string, account: { currency: string; decimals: number; minimum?: string }): { units?: bigint; issues: LaunchIssue[] } {
  const issue = (code: string, message: string, extra: Partial<LaunchIssue> = {}) => ({ issues: [{ field: 'dailyBudget', code, message, ...extra }] });
  const units = toUnits(amount, account.decimals);
  if (units === undefined)
    return issue(
      'INVALID_AMOUNT',
      `${account.currency} budgets on this platform have ${account.decimals === 0 ? 'no decimals' : `at most ${account.decimals} decimals`}; ${amount} cannot be set exactly.`,
    );
  if (units * 10n ** BigInt(isoDecimals(account.currency)) > MAX_DAILY_BUDGET_MINOR_UNITS * 10n ** BigInt(account.decimals))
    return issue('INVALID_AMOUNT', `A daily budget is at most 1,000,000,000 minor units of ${account.currency}.`);
  const minimum = account.minimum === undefined ? undefined : toUnits(account.minimum, account.decimals);
  if (minimum !== undefined && units < minimum)
    return issue('BUDGET_TOO_LOW', `The ad account’s smallest daily budget is ${account.minimum} ${account.currency}.`, {
      minimum: { amount: account.minimum as string, currency: account.currency },
    });
  return { units, issues: [] };
}

/** A real launch refuses what its dry run would list, before any job: 400 with each issue's code (and minimum) in `details`. */
export function refuseIssues(message: string, issues: LaunchIssue[]): void {
  if (issues.length === 0) return;
  throw new InvalidRequest(
    `${message} ${issues.map((issue) => `${issue.field}: ${issue.message}`).join(' ')}`,
    issues.map(({ field, ...rest }) => ({ path: field, ...rest })),
  );
}

/** The name a launch holds while it runs: its campaign's, in its ad account. */
export const launchNameOf = (request: LaunchJobRequest): LaunchName => ({
  platform: request.platform,
  adAccountId: request.plan.adAccountId,
  name: request.campaignName,
});

/**
 * The campaign_launch job, stored with the request's audit event and queued; answered at once. It holds
 * its name in its ad account first: a second launch of that name while it runs is 409 LAUNCH_IN_PROGRESS.
 */
export async function startLaunchJob(call: LaunchCall<unknown>, request: LaunchJobRequest): Promise<LaunchAnswer> {
  const jobId = newJobId();
  const name = launchNameOf(request);
  const running = await claimLaunchName(name, { tenantId: call.tenantId, jobId });
  if (running) {
    throw new LaunchInProgress(request.campaignName, running.tenantId === call.tenantId ? running.jobId : undefined);
  }
  try {
    return await startJob(call, { type: 'campaign_launch', request, checkpoint: { receipts: [] } }, jobId);
  } catch (error) {
    await releaseLaunchName(name, jobId).catch(() => undefined);
    throw error;
  }
}
