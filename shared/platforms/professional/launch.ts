import { LaunchRefused, type LaunchErrorCode, PlatformRejected, type PlatformDetail, ScopeMissing } from '../../core/errors.ts';
import { isoDecimals } from '../../core/money.ts';
import { restliRequest, type ProfessionalSession, type RestliResponse } from './client.ts';
import { ORGANIZATION_SCOPE, type MediaStatus } from './media.ts';

/**
 * The professional network's side of a whole-campaign launch (docs/platforms.md, "Professional:
 * launching a campaign"): the preflight read of the ad account and of the ads' media, the creates of
 * the campaign group, the campaign and each creative (with its post, `createInline`), the read-back of
 * each by its exact name under its parent, the deletes of a rollback and the refusals in the launch's
 * words. Everything a launch makes is DRAFT, the only state a plain DELETE removes.
 */
export const ADS_SCOPE = 'rw_ads';

/**
 * The smallest daily budget per currency (the platform's Help Center: 10 USD; the others are the same
 * in local money). A currency not listed is checked by the platform alone.
 */
export const MINIMUM_DAILY_BUDGET: Record<string, string> = {
  USD: '10',
  EUR: '10',
  GBP: '10',
  CAD: '10',
  AUD: '10',
  CHF: '10',
  JPY: '1000',
  KWD: '3',
  INR: '800',
  BRL: '50',
};

export interface LaunchAccount {
  currency: string;
  decimals: number;
  status: string;
  servingStatuses: string[];
  /** the organization the account advertises for: the posts' default author */
  organization?: string;
}

/** The one read of the ad account a launch makes before anything is queued. */
export async function readLaunchAccount(session: ProfessionalSession, accountId: string): Promise<LaunchAccount> {
  const { body } = await restliRequest(session, 'GET', `/adAccounts/${accountId}`);
  const account = (body ?? {}) as { currency?: string; status?: string; servingStatuses?: string[]; reference?: string };
  const currency = String(account.currency ?? 'USD');
  return {
    currency,
    decimals: isoDecimals(currency),
    status: String(account.status ?? 'ACTIVE'),
    servingStatuses: Array.isArray(account.servingStatuses) ? account.servingStatuses.map(String) : [],
    ...(account.reference?.startsWith('urn:li:organization:') ? { organization: account.reference } : {}),
  };
}

/** Why an account cannot launch, or undefined when it can. */
export function accountIneligibility(account: LaunchAccount): string | undefined {
  if (account.status !== 'ACTIVE') return `The ad account is ${account.status}; the platform launches only from an ACTIVE account.`;
  const holds = account.servingStatuses.filter((status) => status !== 'RUNNABLE');
  if (holds.length > 0) return `The ad account is held (${holds.join(', ')}); the platform would not run what a launch makes.`;
  return undefined;
}

export interface LaunchMedia {
  status: MediaStatus;
  owner?: string;
  /** an image's download URL, a video's thumbnail */
  url?: string;
}

/**
 * The ads' images and videos, each read once (`GET /rest/images|videos/{urn}`, all at once): their
 * status, owner and where they show. One the platform does not know is absent from the answer.
 */
export async function readLaunchMedia(session: ProfessionalSession, urns: string[]): Promise<Map<string, LaunchMedia>> {
  const read = async (urn: string): Promise<[string, LaunchMedia] | undefined> => {
    const kind = urn.startsWith('urn:li:video:') ? 'videos' : 'images';
    try {
      const { body } = await restliRequest(session, 'GET', `/${kind}/${encodeURIComponent(urn)}`);
      const media = (body ?? {}) as { status?: MediaStatus; owner?: string; downloadUrl?: string; thumbnail?: string };
      const url = kind === 'videos' ? media.thumbnail : media.downloadUrl;
      return [urn, { status: media.status ?? 'PROCESSING', ...(media.owner ? { owner: media.owner } : {}), ...(url ? { url } : {}) }];
    } catch (error) {
      if (error instanceof PlatformRejected && error.extra.platformStatus === 404) return undefined;
      throw error;
    }
  };
  const found = await Promise.all(urns.map(read));
  return new Map(found.filter((entry): entry is [string, LaunchMedia] => entry !== undefined));
}

/** One media item's status, read while the job waits for it. */
export async function launchMediaStatus(session: ProfessionalSession, urn: string): Promise<MediaStatus> {
  return (await readLaunchMedia(session, [urn])).get(urn)?.status ?? 'PROCESSING';
}

/** A Rest.li value inside a query: percent-encoded, its reserved `( ) , : '` too (docs/platforms.md, "Professional"). */
export const restliValue = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
const restliList = (values: string[]) => `List(${values.map(restliValue).join(',')})`;

/** The id a create answered: `x-restli-id`, then `x-linkedin-id`, then `Location`, then a JSON body's `id`. */
function createdId(response: RestliResponse): string | undefined {
  const header = response.headers.get('x-restli-id') ?? response.headers.get('x-linkedin-id');
  if (header) return decodeURIComponent(header);
  const location = response.headers.get('location');
  if (location) return decodeURIComponent(location.split('/').pop() ?? '');
  const id = (response.body as { id?: unknown } | null)?.id;
  return id === undefined ? undefined : String(id);
}

export type LaunchLevel = 'adCampaignGroups' | 'adCampaigns';

/** A group or campaign create: its numeric id. Sent once: a lost answer is read back by the job. */
export async function createLaunchObject(session: ProfessionalSession, accountId: string, level: LaunchLevel, body: Record<string, unknown>): Promise<string> {
  const response = await restliRequest(session, 'POST', `/adAccounts/${accountId}/${level}`, { json: body, retrySafe: false });
  const id = createdId(response);
  if (!id) throw new PlatformRejected('professional', `The platform made a ${level} object and named no id.`);
  return id;
}

/** `creatives?action=createInline`: the creative's URN from `value.creative`, else the headers. Sent once. */
export async function createInlineCreative(session: ProfessionalSession, accountId: string, creative: Record<string, unknown>): Promise<string> {
  const response = await restliRequest(session, 'POST', `/adAccounts/${accountId}/creatives?action=createInline`, { json: { creative }, retrySafe: false });
  const value = (response.body as { value?: { creative?: unknown } } | null)?.value;
  const urn = typeof value?.creative === 'string' ? value.creative : createdId(response);
  if (!urn) throw new PlatformRejected('professional', 'The platform made a creative and named no URN.');
  return urn.startsWith('urn:') ? urn : `urn:li:sponsoredCreative:${urn}`;
}

/** A row a read-back found: what is compared with what the create sent. */
export interface FoundObject {
  id: string | number;
  name?: string;
  status?: string;
  intendedStatus?: string;
  objectiveType?: string;
  dailyBudget?: { amount?: string; currencyCode?: string };
  campaign?: string;
  createdAt?: number;
  changeAuditStamps?: { created?: { time?: number } };
}

const madeSince = (row: FoundObject, name: string, sinceMs: number) =>
  row.name === name && (row.createdAt ?? row.changeAuditStamps?.created?.time ?? Number.POSITIVE_INFINITY) >= sinceMs;

/** Every page of a finder (`metadata.nextPageToken` → `pageToken`). */
async function findAll(session: ProfessionalSession, path: string): Promise<FoundObject[]> {
  const rows: FoundObject[] = [];
  let token: string | undefined;
  do {
    const { body } = await restliRequest(session, 'GET', `${path}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    const page = (body ?? {}) as { elements?: FoundObject[]; metadata?: { nextPageToken?: string } };
    rows.push(...(page.elements ?? []));
    token = page.metadata?.nextPageToken || undefined;
  } while (token);
  return rows;
}

/** The account's groups of this exact name made since `sinceMs`. */
export async function findGroups(session: ProfessionalSession, accountId: string, name: string, sinceMs: number): Promise<FoundObject[]> {
  const search = `(name:(values:${restliList([name])}),status:(values:List(DRAFT,ACTIVE)))`;
  const rows = await findAll(session, `/adAccounts/${accountId}/adCampaignGroups?q=search&search=${search}&sortOrder=DESCENDING&pageSize=50`);
  return rows.filter((row) => madeSince(row, name, sinceMs));
}

/** The group's campaigns of this exact name made since `sinceMs`. */
export async function findCampaigns(session: ProfessionalSession, accountId: string, groupId: string, name: string, sinceMs: number): Promise<FoundObject[]> {
  const search = `(campaignGroup:(values:${restliList([`urn:li:sponsoredCampaignGroup:${groupId}`])}),name:(values:${restliList([name])}))`;
  const rows = await findAll(session, `/adAccounts/${accountId}/adCampaigns?q=search&search=${search}&sortOrder=DESCENDING&pageSize=100`);
  return rows.filter((row) => madeSince(row, name, sinceMs));
}

/** The campaign's creatives of this exact name made since `sinceMs`. */
export async function findCreatives(
  session: ProfessionalSession,
  accountId: string,
  campaignId: string,
  name: string,
  sinceMs: number,
): Promise<FoundObject[]> {
  const campaigns = restliList([`urn:li:sponsoredCampaign:${campaignId}`]);
  const rows = await findAll(session, `/adAccounts/${accountId}/creatives?q=criteria&campaigns=${campaigns}&sortOrder=DESCENDING&pageSize=100`);
  return rows.filter((row) => madeSince(row, name, sinceMs));
}

/** The campaign's creatives still DRAFT: what an activation turns on before the campaign. */
export async function draftCreatives(session: ProfessionalSession, accountId: string, campaignId: string): Promise<string[]> {
  const campaigns = restliList([`urn:li:sponsoredCampaign:${campaignId}`]);
  const rows = await findAll(session, `/adAccounts/${accountId}/creatives?q=criteria&campaigns=${campaigns}&pageSize=100`);
  return rows.filter((row) => row.intendedStatus === 'DRAFT').map((row) => String(row.id));
}

/** A group's status, or undefined when the account has no such group. */
export async function groupStatus(session: ProfessionalSession, accountId: string, groupId: string): Promise<string | undefined> {
  try {
    const { body } = await restliRequest(session, 'GET', `/adAccounts/${accountId}/adCampaignGroups/${groupId}`);
    return String((body as { status?: string } | null)?.status ?? '');
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformStatus === 404) return undefined;
    throw error;
  }
}

export type LaunchObjectKind = 'campaign_group' | 'campaign' | 'creative';

const objectPath = (accountId: string, kind: LaunchObjectKind, id: string) =>
  kind === 'creative'
    ? `/adAccounts/${accountId}/creatives/${encodeURIComponent(id)}`
    : `/adAccounts/${accountId}/${kind === 'campaign' ? 'adCampaigns' : 'adCampaignGroups'}/${id}`;

const statusField = (kind: LaunchObjectKind) => (kind === 'creative' ? 'intendedStatus' : 'status');

/** A PARTIAL_UPDATE of an object's status (a creative's `intendedStatus`). */
export async function setLaunchObjectStatus(
  session: ProfessionalSession,
  accountId: string,
  kind: LaunchObjectKind,
  id: string,
  status: string,
): Promise<void> {
  await restliRequest(session, 'POST', objectPath(accountId, kind, id), {
    json: { patch: { $set: { [statusField(kind)]: status } } },
    restliMethod: 'PARTIAL_UPDATE',
    retrySafe: true,
  });
}

/**
 * Undoes an object a launch made: `DELETE` (what a DRAFT takes; a 404 is an object already gone), and
 * when the platform refuses that (the object is no longer a draft), PENDING_DELETION, else ARCHIVED.
 */
export async function removeLaunchObject(session: ProfessionalSession, accountId: string, kind: LaunchObjectKind, id: string): Promise<void> {
  try {
    await restliRequest(session, 'DELETE', objectPath(accountId, kind, id), { retrySafe: true });
    return;
  } catch (error) {
    if (!(error instanceof PlatformRejected)) throw error;
    if (error.extra.platformStatus === 404) return;
  }
  try {
    await setLaunchObjectStatus(session, accountId, kind, id, 'PENDING_DELETION');
  } catch (error) {
    if (!(error instanceof PlatformRejected)) throw error;
    await setLaunchObjectStatus(session, accountId, kind, id, 'ARCHIVED');
  }
}

/** What could not be undone spends nothing: a draft never runs and is left as it is; anything else is PAUSED. */
export async function leaveLaunchObject(session: ProfessionalSession, accountId: string, kind: LaunchObjectKind, id: string): Promise<void> {
  const { body } = await restliRequest(session, 'GET', objectPath(accountId, kind, id));
  const status = (body as Record<string, unknown> | null)?.[statusField(kind)];
  if (status !== 'DRAFT') await setLaunchObjectStatus(session, accountId, kind, id, 'PAUSED');
}

/** The platform's detail of a refusal, as the failed job shows it. */
export function platformDetailOf(error: PlatformRejected): PlatformDetail {
  const { platformStatus, platformCode, serviceErrorCode } = error.extra;
  return {
    code: platformCode !== undefined ? String(platformCode) : Number(platformStatus),
    ...(typeof serviceErrorCode === 'number' ? { subcode: serviceErrorCode } : {}),
    userMessage: error.message,
  };
}

const BY_FIELD: Array<[RegExp, LaunchErrorCode]> = [
  [/^\/(objectiveType|optimizationTargetType|costType|format)/, 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
  [/^\/dailyBudget/, 'BUDGET_TOO_LOW'],
  [/^\/politicalIntent/, 'DECLARATION_REQUIRED'],
];

/**
 * A refusal in the launch's words (docs/errors.md, "Launch errors"), dispatched on status and field
 * path, never on wording. `grantedScopes`: what the connection is known to hold (undefined: unknown).
 */
export function launchRefusalOf(error: unknown, step: string, grantedScopes: string[] | undefined): unknown {
  if (!(error instanceof PlatformRejected)) return error;
  const detail = platformDetailOf(error);
  const refused = (code: LaunchErrorCode) => new LaunchRefused('professional', code, `The platform refused the ${step}: ${error.message}`, detail, error);
  const status = Number(error.extra.platformStatus);
  const creative = step.startsWith('creative');
  if (status === 403) {
    const scope = creative ? ORGANIZATION_SCOPE : ADS_SCOPE;
    if (!grantedScopes?.includes(scope) && (creative || grantedScopes !== undefined)) return new ScopeMissing('professional', scope);
    return refused(creative ? 'PAGE_NOT_AUTHORIZED' : 'ACCOUNT_NOT_ELIGIBLE');
  }
  const fieldPath = String(error.extra.fieldPath ?? '');
  const byField = BY_FIELD.find(([pattern]) => pattern.test(fieldPath))?.[1];
  if (byField && !creative) return refused(byField);
  if (creative && /\/content\/media/.test(fieldPath)) return refused('MEDIA_NOT_READY');
  return refused('PLATFORM_REJECTED');
}
