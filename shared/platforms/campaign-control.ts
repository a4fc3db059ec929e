import type { Platform } from '../core/errors.ts';
import type { CampaignStatus, ControlStatus } from '../schemas/campaign-control.ts';

/**
 * What campaign control needs of a platform (docs/operations.md, "Campaign control"): read one
 * campaign in our words, say what a status request does from its state, and make the one write. Each
 * platform's adapter (`<platform>/campaign-control.ts`) keeps its own wire format, units and rules.
 */
export type BudgetState =
  /** the campaign's own daily budget, in units of 10^-decimals of the currency */
  | { kind: 'daily'; units: bigint }
  /** a daily budget other campaigns use too (search ads), `sharedWith` of them */
  | { kind: 'shared'; units: bigint; sharedWith: number }
  /** no daily budget on the campaign: on its ad sets, or a lifetime or total budget */
  | { kind: 'elsewhere'; where: string };

export interface ControlledCampaign {
  id: string;
  name: string;
  status: CampaignStatus;
  /** the platform's own word (ENABLED, ARCHIVED, DRAFT, …) */
  platformStatus: string;
  currency: string;
  /** the decimals an amount may have in this currency on this platform */
  decimals: number;
  budget: BudgetState;
  /** the campaign's start (epoch ms), when the platform says */
  startMs?: number;
  /** adapter data the write needs (a budget's resource name, the account), never shown */
  ref?: Record<string, string>;
}

export interface StatusPlan {
  status: CampaignStatus;
  platformStatus: string;
  /** false: the campaign is already as asked, nothing is sent */
  changed: boolean;
}

export interface CampaignControl<Session> {
  platform: Platform;
  /** the campaign in the session's account, or undefined when it is not there */
  read(session: Session, campaignId: string): Promise<ControlledCampaign | undefined>;
  /** many campaigns of the session's account as they are now, in one listing query (a backtest starts from them); the missing are not in the account */
  readMany(session: Session, campaignIds: readonly string[]): Promise<Map<string, ControlledCampaign>>;
  /** what `wanted` does from the campaign's state; throws CampaignRefused when the platform forbids it */
  planStatus(campaign: ControlledCampaign, wanted: ControlStatus): StatusPlan;
  writeStatus(session: Session, campaign: ControlledCampaign, wanted: ControlStatus, validateOnly: boolean): Promise<void>;
  writeDailyBudget(session: Session, campaign: ControlledCampaign, units: bigint, validateOnly: boolean): Promise<void>;
  /** a limit of the platform on budget changes that we keep before the call (the social platform's 4 an hour) */
  budgetChangesPerHour?: number;
}
