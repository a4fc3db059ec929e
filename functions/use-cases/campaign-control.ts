import { declaredAudit, nothingWritten } from '../../shared/core/audit.ts';
import { clock } from '../../shared/core/clock.ts';
import { CampaignRefused, InvalidRequest, PlatformRateLimited } from '../../shared/core/errors.ts';
import { log } from '../../shared/core/logger.ts';
import { fromUnits, toUnits, type Money } from '../../shared/core/money.ts';
import type { CampaignControl, ControlledCampaign } from '../../shared/platforms/campaign-control.ts';
import type { EditCampaignInput, UpdateCampaignStatusInput } from '../../shared/schemas/campaign-control.ts';
import type { HistoryChange, HistorySource } from '../../shared/schemas/optimization.ts';
import { releaseBudgetChange, reserveBudgetChange } from '../../shared/store/budget-changes.ts';
import { appendHistoryEntry } from '../../shared/store/optimization-history-writes.ts';

/**
 * Campaign control on any platform (docs/operations.md, "Campaign control"): read the campaign, decide
 * every refusal from what the read shows before anything is written, make one write (or the
 * platform's dry run), and record an applied change in the campaign's optimization history with its
 * audit event in the same transaction. A campaign already as asked changes nothing (`changed: false`).
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
  /** who asked: an API call, or a rule */
  source?: HistorySource;
  /** the campaign as the caller read it a moment ago (a rule plans from its read): not read again */
  campaign?: ControlledCampaign;
}

async function readCampaign<S>(control: CampaignControl<S>, session: S, campaignId: string): Promise<ControlledCampaign> {
  const campaign = await control.read(session, campaignId);
  if (!campaign) throw new CampaignRefused('CAMPAIGN_NOT_FOUND', `Campaign ${campaignId} is not in the user’s connected ${control.platform} account.`);
  return campaign;
}

const removed = (campaign: ControlledCampaign) =>
  new CampaignRefused('CAMPAIGN_REMOVED', `Campaign ${campaign.id} is ${campaign.platformStatus.toLowerCase()}: nothing more can change on it.`, {
    platformStatus: campaign.platformStatus,
  });

export async function updateCampaignStatus<S>(control: CampaignControl<S>, session: S, call: ControlCall<UpdateCampaignStatusInput>, ports = storePorts) {
  const { input } = call;
  const campaign = call.campaign ?? (await readCampaign(control, session, input.campaignId));
  if (campaign.status === 'REMOVED' && input.status !== 'DELETE') throw removed(campaign);
  const plan =
    campaign.status === 'REMOVED'
      ? { status: campaign.status, platformStatus: campaign.platformStatus, changed: false }
      : control.planStatus(campaign, input.status);
  const answer = { campaignId: campaign.id, status: plan.status, previousStatus: campaign.status, platformStatus: plan.platformStatus, changed: plan.changed };
  if (!plan.changed || input.validateOnly) {
    nothingWritten();
    if (plan.changed) await control.writeStatus(session, campaign, input.status, true);
    return input.validateOnly ? { ...answer, validateOnly: true } : answer;
  }
  await control.writeStatus(session, campaign, input.status, false);
  await recordChange(control, call, campaign, { field: 'status', from: campaign.status, to: plan.status }, plan.status, answer, ports);
  return answer;
}

export async function editCampaignBudget<S>(control: CampaignControl<S>, session: S, call: ControlCall<EditCampaignInput>, ports = storePorts) {
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
  const money = (value: bigint): Money => ({ amount: fromUnits(value, campaign.decimals), currency: campaign.currency });
  const answer = {
    campaignId: campaign.id,
    dailyBudget: money(units),
    previousDailyBudget: money(budget.units),
    changed: units !== budget.units,
    ...(budget.kind === 'shared' ? { sharedWith: budget.sharedWith } : {}),
  };
  if (!answer.changed || input.validateOnly) {
    nothingWritten();
    if (answer.changed) await control.writeDailyBudget(session, campaign, units, true);
    return input.validateOnly ? { ...answer, validateOnly: true } : answer;
  }
  const reserved = control.budgetChangesPerHour ? await ports.reserveBudgetChange(control.platform, campaign.id, control.budgetChangesPerHour) : undefined;
  if (reserved && 'retryAfterSeconds' in reserved) {
    nothingWritten();
    throw new PlatformRateLimited(control.platform, reserved.retryAfterSeconds);
  }
  try {
    await control.writeDailyBudget(session, campaign, units, false);
  } catch (error) {
    if (reserved) await ports.releaseBudgetChange(control.platform, campaign.id, reserved.at);
    throw error;
  }
  await recordChange(
    control,
    call,
    campaign,
    { field: 'dailyBudget', from: answer.previousDailyBudget, to: answer.dailyBudget },
    campaign.status,
    answer,
    ports,
  );
  return answer;
}

/**
 * The applied change in the campaign's optimization history (a record is made for a campaign that had
 * none), with the operation's audit event in the same write. The platform has changed the campaign
 * already: a store that fails now is logged, and the answer still says what was done.
 */
async function recordChange<S>(
  control: CampaignControl<S>,
  call: ControlCall<unknown>,
  campaign: ControlledCampaign,
  change: HistoryChange,
  statusAfter: string,
  answer: object,
  ports: ControlPorts,
): Promise<void> {
  const now = clock.now();
  await ports
    .appendHistory(
      call.tenantId,
      {
        userId: call.userId,
        campaignId: campaign.id,
        entry: { adId: '', adSetId: '', headlines: [], primaryTexts: [], images: [], timestamp: now, change, source: call.source ?? { type: 'api' } },
        campaign: (latest) => ({
          campaignName: latest?.campaignName ?? campaign.name,
          platform: latest?.platform ?? control.platform,
          optimizationStatus: statusAfter,
          startDate: latest?.startDate ?? campaign.startMs ?? now,
        }),
      },
      declaredAudit(answer),
    )
    .catch((error: unknown) =>
      log().error('campaign changed, but its history entry was not stored', { campaignId: campaign.id, reason: (error as Error).name }),
    );
}
