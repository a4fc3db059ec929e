import { type Answer, type AuditUnit, unchanged, unchangedBy } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { CampaignRefused, InvalidRequest, PlatformRateLimited, PlatformTimeout, PlatformUnavailable } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { fromUnits, isoDecimals, toUnits, type Money } from '../../../shared/core/money.ts';
import type { CampaignControl, ControlledCampaign } from '../../../shared/platforms/campaign-control.ts';
import type { EditCampaignInput, UpdateCampaignStatusInput } from '../../../shared/schemas/campaign-control.ts';
import type { HistoryChange, HistorySource } from '../../../shared/schemas/optimization.ts';
import { releaseBudgetChange, reserveBudgetChange } from '../../../shared/store/budget-changes.ts';
import { campaignChangePut, campaignChangesSince, type RecordedOnceMark, underCampaignLease } from '../../../shared/store/campaign-changes.ts';
import { appendHistoryEntry } from '../../../shared/store/optimization-history-writes.ts';

/**
 * Campaign control on any platform (docs/operations.md, "Campaign control"): read the campaign, decide
 * every refusal from what the read shows before anything is written, make one write (or the
 * platform's dry run), and record an applied change in the campaign's optimization history with its
 * audit event and the campaign's change log in the same transaction. A campaign already as asked
 * changes nothing (`changed: false`). All of it runs under the campaign's lease, so concurrent control
 * of one campaign is serialized and each `from` is what the write replaced. A write whose answer was
 * lost (timeout, 5xx) is never sent again: the campaign is read back, and the change is recorded when
 * the platform made it (docs/decisions.md, "Lost answers").
 */
export interface ControlPorts {
  appendHistory: typeof appendHistoryEntry;
  reserveBudgetChange: typeof reserveBudgetChange;
  releaseBudgetChange: typeof releaseBudgetChange;
}

const storePorts: ControlPorts = { appendHistory: appendHistoryEntry, reserveBudgetChange, releaseBudgetChange };

export interface ControlCall<Input> {
  tenantId: string;
  userId: string;
  input: Input;
  /** the call's audit: the change's event goes into its history entry's transaction */
  audit: AuditUnit;
  /** who asked: an API call, or a rule */
  source?: HistorySource;
  /** the campaign as the caller read it a moment ago under the same lease (a rule plans from its read): not read again */
  campaign?: ControlledCampaign;
  /**
   * A rule's action: the lease it holds already, its decided change (finished as decided after a crash:
   * a campaign found already changed to it is recorded from it) and the write that marks it recorded,
   * so its history entry and audit event are stored once.
   */
  action?: { decided: HistoryChange; recordedOnce: RecordedOnceMark };
}

/** The campaign's lease around the whole call, unless the caller (a rule's action) holds it. */
const controlled = <T>(control: CampaignControl<unknown>, call: ControlCall<{ campaignId: string }>, work: () => Promise<T>) =>
  call.action ? work() : underCampaignLease({ tenantId: call.tenantId, platform: control.platform, campaignId: call.input.campaignId }, work);

/** The platform may have made a write whose answer never came. */
const answerLost = (error: unknown) => error instanceof PlatformTimeout || error instanceof PlatformUnavailable;

/** After a lost answer: the campaign read back (undefined when the read fails too or it is gone). */
async function readBack<S>(control: CampaignControl<S>, session: S, campaignId: string): Promise<ControlledCampaign | 'gone' | undefined> {
  try {
    return (await control.read(session, campaignId)) ?? 'gone';
  } catch {
    return undefined;
  }
}

const notFound = (control: CampaignControl<unknown>, campaignId: string): never => {
  throw new CampaignRefused('CAMPAIGN_NOT_FOUND', `Campaign ${campaignId} is not in the user’s connected ${control.platform} account.`);
};

async function readCampaign<S>(control: CampaignControl<S>, session: S, campaignId: string): Promise<ControlledCampaign> {
  return (await control.read(session, campaignId)) ?? notFound(control as CampaignControl<unknown>, campaignId);
}

/** Whether a change of this tenant removed the campaign (its change log keeps 31 days). */
async function deletedByUs(tenantId: string, platform: CampaignControl<unknown>['platform'], campaignId: string): Promise<boolean> {
  return (await campaignChangesSince(tenantId, platform, campaignId, 0)).some(({ change }) => change.field === 'status' && change.to === 'REMOVED');
}

const removed = (campaign: ControlledCampaign) =>
  new CampaignRefused('CAMPAIGN_REMOVED', `Campaign ${campaign.id} is ${campaign.platformStatus.toLowerCase()}: nothing more can change on it.`, {
    platformStatus: campaign.platformStatus,
  });

export function updateCampaignStatus<S>(control: CampaignControl<S>, session: S, call: ControlCall<UpdateCampaignStatusInput>, ports = storePorts) {
  return controlled(control as CampaignControl<unknown>, call, async () => {
    const { input } = call;
    const found = call.campaign ?? (await control.read(session, input.campaignId));
    if (!found && input.status === 'DELETE' && (await deletedByUs(call.tenantId, control.platform, input.campaignId))) {
      // a platform that forgets what it deleted (a professional draft): the repeat changes nothing
      return unchanged({
        campaignId: input.campaignId,
        status: 'REMOVED' as const,
        previousStatus: 'REMOVED' as const,
        platformStatus: 'DELETED',
        changed: false,
      });
    }
    const campaign = found ?? notFound(control, input.campaignId);
    if (campaign.status === 'REMOVED' && input.status !== 'DELETE') throw removed(campaign);
    const plan =
      campaign.status === 'REMOVED'
        ? { status: campaign.status, platformStatus: campaign.platformStatus, changed: false }
        : control.planStatus(campaign, input.status);
    const answer = {
      campaignId: campaign.id,
      status: plan.status,
      previousStatus: campaign.status,
      platformStatus: plan.platformStatus,
      changed: plan.changed,
    };
    const decided = call.action?.decided;
    if (!plan.changed && !input.validateOnly && decided?.field === 'status' && decided.to === campaign.status) {
      // a rule's action that a crash interrupted after the platform took it: recorded as it was decided
      const finished = { ...answer, previousStatus: decided.from as typeof campaign.status, changed: true };
      return recordChange(control, call, campaign, decided, campaign.status, finished, ports);
    }
    if (!plan.changed || input.validateOnly) {
      // the platform's dry run writes nothing, and a refusal of it records nothing either
      if (plan.changed) await control.writeStatus(session, campaign, input.status, true).catch(refusedUnchanged);
      return unchanged(input.validateOnly ? { ...answer, validateOnly: true } : answer);
    }
    try {
      await control.writeStatus(session, campaign, input.status, false);
    } catch (error) {
      if (!answerLost(error)) throw error;
      const after = await readBack(control, session, campaign.id);
      const status = after === 'gone' ? 'REMOVED' : after?.status;
      const made = status !== undefined && status === plan.status;
      if (!made) throw error;
      log().warn('a campaign write lost its answer; read back, the platform had made it', { platform: control.platform, campaignId: campaign.id });
    }
    return recordChange(control, call, campaign, { field: 'status', from: campaign.status, to: plan.status }, plan.status, answer, ports);
  });
}

export function editCampaignBudget<S>(control: CampaignControl<S>, session: S, call: ControlCall<EditCampaignInput>, ports = storePorts) {
  return controlled(control as CampaignControl<unknown>, call, () => editBudgetLeased(control, session, call, ports));
}

/** A daily budget's ceiling on every platform, in the currency's minor units (docs/decisions.md, "Bounds"). */
export const MAX_DAILY_BUDGET_MINOR_UNITS = 1_000_000_000n;

/** The ceiling in the currency's major units. */
export const budgetCeiling = (currency: string) => fromUnits(MAX_DAILY_BUDGET_MINOR_UNITS, isoDecimals(currency));

async function editBudgetLeased<S>(control: CampaignControl<S>, session: S, call: ControlCall<EditCampaignInput>, ports: ControlPorts) {
  const { input } = call;
  const campaign = call.campaign ?? (await readCampaign(control, session, input.campaignId));
  if (campaign.status === 'REMOVED') throw removed(campaign);
  const { budget } = campaign;
  if (budget.kind === 'elsewhere')
    throw new CampaignRefused('BUDGET_NOT_ON_CAMPAIGN', `Campaign ${campaign.id} has no daily budget of its own: ${budget.where}.`, { budgetIs: budget.where });
  if (budget.kind === 'shared' && !input.allowSharedBudget)
    throw new CampaignRefused(
      'SHARED_BUDGET',
      `The budget of campaign ${campaign.id} is shared with ${budget.sharedWith} other campaign${budget.sharedWith === 1 ? '' : 's'}; a change would change theirs too. Send allowSharedBudget: true to change it for all of them.`,
      { sharedWith: budget.sharedWith },
    );
  const units = toUnits(input.amount, campaign.decimals);
  if (units === undefined)
    throw new InvalidRequest(
      `amount: ${campaign.currency} budgets on this platform have ${campaign.decimals === 0 ? 'no decimals' : `at most ${campaign.decimals} decimals`}; ${input.amount} cannot be set exactly.`,
      [{ path: 'amount', message: `has more decimals than ${campaign.currency} allows (${campaign.decimals})` }],
    );
  const ceiling = budgetCeiling(campaign.currency);
  if (units * 10n ** BigInt(isoDecimals(campaign.currency)) > MAX_DAILY_BUDGET_MINOR_UNITS * 10n ** BigInt(campaign.decimals))
    throw new InvalidRequest(`amount: a daily budget is at most ${ceiling} ${campaign.currency}.`, [
      { path: 'amount', message: `is more than ${ceiling} ${campaign.currency}, the most a daily budget may be` },
    ]);
  const money = (value: bigint): Money => ({ amount: fromUnits(value, campaign.decimals), currency: campaign.currency });
  const answer = {
    campaignId: campaign.id,
    dailyBudget: money(units),
    previousDailyBudget: money(budget.units),
    changed: units !== budget.units,
    ...(budget.kind === 'shared' ? { sharedWith: budget.sharedWith } : {}),
  };
  const recorded = (made: typeof answer) =>
    recordChange(control, call, campaign, { field: 'dailyBudget', from: made.previousDailyBudget, to: made.dailyBudget }, campaign.status, made, ports);
  const decided = call.action?.decided;
  if (!answer.changed && !input.validateOnly && decided?.field === 'dailyBudget' && decided.to === answer.dailyBudget.amount)
    // a rule's action that a crash interrupted after the platform took it: recorded as it was decided
    return recorded({ ...answer, previousDailyBudget: { amount: String(decided.from), currency: campaign.currency }, changed: true });
  if (!answer.changed || input.validateOnly) {
    if (answer.changed) await control.writeDailyBudget(session, campaign, units, true).catch(refusedUnchanged);
    return unchanged(input.validateOnly ? { ...answer, validateOnly: true } : answer);
  }
  const reserved = control.budgetChangesPerHour ? await ports.reserveBudgetChange(control.platform, campaign.id, control.budgetChangesPerHour) : undefined;
  if (reserved && 'retryAfterSeconds' in reserved) {
    throw unchangedBy(
      new PlatformRateLimited(
        control.platform,
        reserved.retryAfterSeconds,
        undefined,
        `Campaign ${campaign.id} had ${control.budgetChangesPerHour} budget changes in the last hour, the most the ${control.platform} platform allows (it blocks the campaign's budget for an hour after that); nothing was sent. Retry after ${reserved.retryAfterSeconds} seconds.`,
      ),
    );
  }
  try {
    await control.writeDailyBudget(session, campaign, units, false);
  } catch (error) {
    const after = answerLost(error) ? await readBack(control, session, campaign.id) : undefined;
    if (after === undefined || after === 'gone' || after.budget.kind === 'elsewhere' || after.budget.units !== units) {
      // a change the platform refused is given back; one whose answer never came may have been counted upstream: it stays
      if (reserved && !(error instanceof PlatformTimeout)) await ports.releaseBudgetChange(control.platform, campaign.id, reserved.at);
      throw error;
    }
    log().warn('a campaign write lost its answer; read back, the platform had made it', { platform: control.platform, campaignId: campaign.id });
  }
  return recorded(answer);
}

/** A refusal of a dry run: nothing was written, so no failed event is recorded for it. */
const refusedUnchanged = (error: unknown): never => {
  throw error instanceof Error ? unchangedBy(error) : error;
};

/**
 * The applied change in the campaign's optimization history (a record is made for a campaign that had
 * none), with the operation's audit event in the same write. The platform has changed the campaign
 * already: a store that fails now is logged, and the answer still says what was done (its event is
 * then recorded by the middleware). A rule's action resumed after a crash finds its entry and event
 * stored already: it answers unchanged.
 */
async function recordChange<S, Result extends object>(
  control: CampaignControl<S>,
  call: ControlCall<unknown>,
  campaign: ControlledCampaign,
  change: HistoryChange,
  statusAfter: string,
  answer: Result,
  ports: ControlPorts,
): Promise<Answer<Result>> {
  const now = clock.now();
  const source = call.source ?? { type: 'api' as const };
  return ports
    .appendHistory(
      call.tenantId,
      {
        userId: call.userId,
        campaignId: campaign.id,
        entry: { adId: '', adSetId: '', headlines: [], primaryTexts: [], images: [], timestamp: now, change, source },
        also: [
          campaignChangePut(call.tenantId, control.platform, campaign.id, { at: now, change, source, userId: call.userId }),
          ...(call.action ? [call.action.recordedOnce] : []),
        ],
        campaign: (latest) => ({
          campaignName: latest?.campaignName ?? campaign.name,
          platform: latest?.platform ?? control.platform,
          optimizationStatus: statusAfter,
          startDate: latest?.startDate ?? campaign.startMs ?? now,
        }),
      },
      call.audit.event(answer),
    )
    .then((entry) => (entry ? answer : unchanged(answer)))
    .catch((error: unknown) => {
      log().error('campaign changed, but its history entry was not stored', { campaignId: campaign.id, reason: (error as Error).name });
      return answer;
    });
}
