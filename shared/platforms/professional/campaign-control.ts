import { PlatformCampaignRefused, PlatformRejected } from '../../core/errors.ts';
import { fromUnits, isoDecimals, toUnits } from '../../core/money.ts';
import type { CampaignControl, ControlledCampaign } from '../campaign-control.ts';
import { accountCurrency } from './account.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';
import { draftCreatives, groupStatus, setLaunchObjectStatus } from './launch.ts';

/**
 * Campaign control on the professional network (docs/platforms.md, "Professional: campaign control"):
 * `GET /rest/adAccounts/{account}/adCampaigns/{id}`, and a `POST` of the same with
 * `X-RestLi-Method: PARTIAL_UPDATE` and `{"patch":{"$set":{…}}}` for `status` or `dailyBudget`
 * (`{amount, currencyCode}`, a major-unit decimal string). Our DELETE deletes a DRAFT (`DELETE`) and
 * archives any other campaign. There is no dry run upstream: `validateOnly` is our checks and the read.
 */
type Session = ProfessionalSession & { adAccountId: string };

interface CampaignBody {
  id?: number;
  name?: string;
  account?: string;
  status?: string;
  dailyBudget?: { amount?: string; currencyCode?: string };
  totalBudget?: { amount?: string; currencyCode?: string };
  runSchedule?: { start?: number };
  campaignGroup?: string;
}

const REMOVED_STATUSES = new Set(['ARCHIVED', 'COMPLETED', 'CANCELED', 'PENDING_DELETION', 'REMOVED']);
const path = (session: Session, campaignId: string) => `/adAccounts/${session.adAccountId}/adCampaigns/${campaignId}`;

function refusalOf(error: unknown): unknown {
  if (!(error instanceof PlatformRejected)) return error;
  const { platformStatus, fieldPath } = error.extra;
  if (platformStatus === 404) return new PlatformCampaignRefused('professional', 'CAMPAIGN_NOT_FOUND', error.message, {}, error);
  if (fieldPath === '/status') return new PlatformCampaignRefused('professional', 'INVALID_TRANSITION', error.message, {}, error);
  if (typeof fieldPath === 'string' && fieldPath.startsWith('/dailyBudget'))
    return new PlatformCampaignRefused('professional', 'BUDGET_TOO_LOW', error.message, {}, error);
  return error;
}

function partialUpdate(session: Session, campaign: ControlledCampaign, set: Record<string, unknown>): Promise<unknown> {
  // a write whose answer is lost is not sent again: the control code reads the campaign back
  return restliRequest(session, 'POST', path(session, campaign.id), { json: patchOf(set), restliMethod: 'PARTIAL_UPDATE', retrySafe: false }).catch(
    (error: unknown) => {
      throw refusalOf(error);
    },
  );
}

/** The Rest.li partial update of a set of fields. */
export const patchOf = (set: Record<string, unknown>) => ({ patch: { $set: set } });

/** A daily budget as the platform writes it: a major-unit decimal string with the currency's decimals. */
export const dailyBudgetOf = (units: bigint, decimals: number, currency: string) => ({
  dailyBudget: { amount: fromUnits(units, decimals), currencyCode: currency },
});

/**
 * A draft campaign (a launch's) goes live as the platform wants it (docs/platforms.md, "Professional:
 * launching a campaign"): its group first when that is a draft too, then each draft creative; the
 * campaign itself last. Each of these writes sets a status and is safe to send again.
 */
async function activateDraftParts(session: Session, campaign: ControlledCampaign): Promise<void> {
  const groupId = campaign.ref?.campaignGroup?.split(':').pop();
  if (groupId && (await groupStatus(session, session.adAccountId, groupId)) === 'DRAFT')
    await setLaunchObjectStatus(session, session.adAccountId, 'campaign_group', groupId, 'ACTIVE');
  for (const creative of await draftCreatives(session, session.adAccountId, campaign.id))
    await setLaunchObjectStatus(session, session.adAccountId, 'creative', creative, 'ACTIVE');
}

/** Every status a campaign of the account may have: a listing asks for all of them. */
const EVERY_STATUS = ['ACTIVE', 'PAUSED', 'DRAFT', 'ARCHIVED', 'COMPLETED', 'CANCELED', 'PENDING_DELETION', 'REMOVED'];
/** 100 campaigns a page: an account's whole list, up to 100,000 */
const MAX_SEARCH_PAGES = 1_000;

/** A campaign body in our words. */
function controlledOf(body: CampaignBody, campaignId: string, currency: string): ControlledCampaign {
  const status = String(body.status ?? 'DRAFT');
  const decimals = isoDecimals(currency);
  const daily = body.dailyBudget?.amount === undefined ? undefined : toUnits(body.dailyBudget.amount, decimals);
  return {
    id: String(body.id ?? campaignId),
    name: body.name ?? '',
    status: status === 'ACTIVE' ? 'ACTIVE' : REMOVED_STATUSES.has(status) ? 'REMOVED' : 'PAUSED',
    platformStatus: status,
    currency,
    decimals,
    budget: daily !== undefined ? { kind: 'daily', units: daily } : { kind: 'elsewhere', where: 'it has only a total budget' },
    ...(body.runSchedule?.start ? { startMs: body.runSchedule.start } : {}),
    ...(body.campaignGroup ? { ref: { campaignGroup: body.campaignGroup } } : {}),
  };
}

export const professionalCampaignControl: CampaignControl<Session> = {
  platform: 'professional',

  async read(session, campaignId) {
    let body: CampaignBody;
    try {
      body = (await restliRequest(session, 'GET', path(session, campaignId))).body as CampaignBody;
    } catch (error) {
      if (error instanceof PlatformRejected && (error.extra.platformStatus === 404 || error.extra.platformStatus === 403)) return undefined;
      throw error;
    }
    return controlledOf(
      body,
      campaignId,
      body.dailyBudget?.currencyCode ?? body.totalBudget?.currencyCode ?? (await accountCurrency(session, session.adAccountId)),
    );
  },

  async readMany(session, campaignIds) {
    const wanted = new Set(campaignIds);
    const found = new Map<string, ControlledCampaign>();
    let currency: string | undefined;
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_SEARCH_PAGES; page++) {
      const query = `q=search&search=(status:(values:List(${EVERY_STATUS.join(',')})))&pageSize=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const { body } = await restliRequest(session, 'GET', `/adAccounts/${session.adAccountId}/adCampaigns?${query}`);
      const { elements = [], metadata } = (body ?? {}) as { elements?: CampaignBody[]; metadata?: { nextPageToken?: string } };
      for (const element of elements) {
        const id = String(element.id);
        if (!wanted.has(id)) continue;
        const own = element.dailyBudget?.currencyCode ?? element.totalBudget?.currencyCode;
        currency ??= own ?? (await accountCurrency(session, session.adAccountId));
        found.set(id, controlledOf(element, id, own ?? currency));
      }
      pageToken = metadata?.nextPageToken;
      if (!pageToken || found.size === wanted.size) break;
    }
    return found;
  },

  planStatus(campaign, wanted) {
    if (wanted === 'DELETE') return { status: 'REMOVED', platformStatus: campaign.platformStatus === 'DRAFT' ? 'DELETED' : 'ARCHIVED', changed: true };
    // a draft has never run: pausing it changes nothing; activating it launches it
    if (wanted === 'PAUSED' && campaign.platformStatus === 'DRAFT') return { status: 'PAUSED', platformStatus: 'DRAFT', changed: false };
    return { status: wanted, platformStatus: wanted, changed: campaign.platformStatus !== wanted };
  },

  async writeStatus(session, campaign, wanted, validateOnly) {
    if (validateOnly) return; // no dry run upstream: the read and our checks are it
    if (wanted === 'DELETE' && campaign.platformStatus === 'DRAFT') {
      await restliRequest(session, 'DELETE', path(session, campaign.id), { retrySafe: false }).catch((error: unknown) => {
        throw refusalOf(error);
      });
      return;
    }
    if (wanted === 'ACTIVE' && campaign.platformStatus === 'DRAFT') await activateDraftParts(session, campaign);
    await partialUpdate(session, campaign, { status: wanted === 'DELETE' ? 'ARCHIVED' : wanted });
  },

  async writeDailyBudget(session, campaign, units, validateOnly) {
    if (validateOnly) return;
    await partialUpdate(session, campaign, dailyBudgetOf(units, campaign.decimals, campaign.currency));
  },
};
