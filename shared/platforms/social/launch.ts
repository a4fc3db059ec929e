import { LaunchRefused, type LaunchErrorCode, PlatformAuthExpired, PlatformRejected, type PlatformDetail, ScopeMissing } from '../../core/errors.ts';
import { socialDecimals } from '../../core/money.ts';
import { minimumFromMessage } from './campaign-control.ts';
import { graphRequest, type GraphParams, type SocialSession } from './client.ts';

/**
 * The social platform's side of a whole-campaign launch (docs/platforms.md, "Social: launching a
 * campaign"): the preflight read of the ad account, the creates of the campaign, ad set, creatives
 * and ads (a create is never sent again blind: the launch job reads back first), the read-back of an
 * object by its exact name under its parent, the deletes of a rollback, and the platform's refusals in
 * the launch's words. Arrays and objects travel as JSON strings, money as integer minor units.
 */
export type LaunchEdge = 'campaigns' | 'adsets' | 'adcreatives' | 'ads';

export interface LaunchAccount {
  currency: string;
  decimals: number;
  timeZone: string;
  /** 1 is the only status a launch may use */
  status: number;
  disableReason?: number;
  /** the account's smallest daily budget, in minor units */
  minimumUnits: bigint;
  hasPaymentMethod: boolean;
  userTasks: string[];
}

const ACCOUNT_FIELDS =
  'id,account_id,name,currency,timezone_name,timezone_offset_hours_utc,account_status,disable_reason,min_daily_budget,funding_source_details,default_dsa_payor,default_dsa_beneficiary,user_tasks';

interface AccountNode {
  currency?: string;
  timezone_name?: string;
  account_status?: number;
  disable_reason?: number;
  min_daily_budget?: number | string;
  funding_source_details?: unknown;
  user_tasks?: string[];
}

/** The one read of the ad account a launch makes before anything is queued. */
export async function readLaunchAccount(session: SocialSession, adAccountId: string): Promise<LaunchAccount> {
  const { body } = await graphRequest<AccountNode>(session, 'GET', `act_${adAccountId}`, { fields: ACCOUNT_FIELDS });
  const currency = String(body.currency ?? 'USD');
  const minimum = String(body.min_daily_budget ?? '0');
  return {
    currency,
    decimals: socialDecimals(currency),
    timeZone: String(body.timezone_name ?? 'UTC'),
    status: Number(body.account_status ?? 1),
    ...(body.disable_reason ? { disableReason: Number(body.disable_reason) } : {}),
    minimumUnits: /^\d+$/.test(minimum) ? BigInt(minimum) : 0n,
    hasPaymentMethod: body.funding_source_details !== undefined && body.funding_source_details !== null,
    userTasks: Array.isArray(body.user_tasks) ? body.user_tasks.map(String) : [],
  };
}

/** Why an account cannot launch, or undefined when it can. */
export function accountIneligibility(account: LaunchAccount): string | undefined {
  if (account.status !== 1)
    return `The ad account is not active (status ${account.status}${account.disableReason ? `, disable reason ${account.disableReason}` : ''}); the platform launches only from an active account.`;
  if (account.userTasks.length > 0 && !account.userTasks.some((task) => task === 'MANAGE' || task === 'ADVERTISE'))
    return 'The user may not advertise on this ad account (the platform gives them neither MANAGE nor ADVERTISE).';
  return undefined;
}

/** A create: the new object's id. Never retried after a lost answer (the caller reads back). */
export async function createObject(session: SocialSession, adAccountId: string, edge: LaunchEdge, params: GraphParams): Promise<string> {
  const { body } = await graphRequest<{ id?: string }>(session, 'POST', `act_${adAccountId}/${edge}`, params, { retrySafe: false });
  if (!body.id) throw new PlatformRejected('social', `The platform made a ${edge} object and named no id.`);
  return String(body.id);
}

/** The platform's own dry run of a create (`execution_options=["validate_only"]`): nothing is made. */
export async function validateObject(session: SocialSession, adAccountId: string, edge: LaunchEdge, params: GraphParams): Promise<void> {
  await graphRequest(session, 'POST', `act_${adAccountId}/${edge}`, { ...params, execution_options: JSON.stringify(['validate_only']) }, { retrySafe: true });
}

/** Where a read-back looks for an object: the account's campaigns or creatives, a campaign's ad sets, an ad set's ads. */
export type Parent =
  | { edge: 'campaigns'; adAccountId: string }
  | { edge: 'adcreatives'; adAccountId: string }
  | { edge: 'adsets'; campaignId: string }
  | { edge: 'ads'; adSetId: string };

const READ_BACK_FIELDS = {
  campaigns: 'id,name,status,effective_status,objective,daily_budget,created_time',
  adcreatives: 'id,name,object_story_spec,created_time',
  adsets: 'id,name,status,effective_status,optimization_goal,billing_event,created_time',
  ads: 'id,name,status,effective_status,creative{id},created_time',
};

/** A row a read-back found: what is compared with what the create sent. */
export interface FoundObject {
  id: string;
  name?: string;
  status?: string;
  objective?: string;
  daily_budget?: string | number;
  optimization_goal?: string;
  creative?: { id?: string };
  object_story_spec?: Record<string, unknown>;
  created_time?: string;
}

/** `created_time` as epoch ms (the platform writes an ISO 8601 time with a `-0800`-style offset); undefined when it is not given. */
const createdMs = (row: FoundObject) => (row.created_time ? Date.parse(row.created_time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : undefined);

/**
 * The objects under `parent` with exactly this name, made since `sinceMs`: the platform filters on the
 * name (EQUAL) and the time (UNIX seconds), and both are checked again here. Creatives are read as the
 * account's newest (the edge takes no time filter), matched by name and, when the platform gives it,
 * created time.
 */
export async function findByName(session: SocialSession, parent: Parent, name: string, sinceMs: number): Promise<FoundObject[]> {
  const path =
    parent.edge === 'campaigns' || parent.edge === 'adcreatives'
      ? `act_${parent.adAccountId}/${parent.edge}`
      : parent.edge === 'adsets'
        ? `${parent.campaignId}/adsets`
        : `${parent.adSetId}/ads`;
  const filters = [
    { field: 'name', operator: 'EQUAL', value: name },
    ...(parent.edge === 'adcreatives' ? [] : [{ field: 'created_time', operator: 'GREATER_THAN', value: Math.floor(sinceMs / 1000) }]),
  ];
  const { body } = await graphRequest<{ data?: FoundObject[] }>(session, 'GET', path, {
    fields: READ_BACK_FIELDS[parent.edge],
    filtering: JSON.stringify(filters),
    limit: 50,
  });
  return (body.data ?? [])
    .filter((row) => row.name === name && (createdMs(row) ?? Number.POSITIVE_INFINITY) >= sinceMs - 999)
    .map((row) => ({ ...row, id: String(row.id) }));
}

/** `DELETE /{id}`: safe to send again (a delete of a deleted object is refused, and counts as done). */
export async function deleteObject(session: SocialSession, id: string): Promise<void> {
  try {
    await graphRequest(session, 'DELETE', id, {}, { retrySafe: true });
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformSubcode === 1487056) return; // already deleted
    throw error;
  }
}

/** `POST /{id} status=PAUSED`: what is left of a rollback spends nothing. */
export async function pauseObject(session: SocialSession, id: string): Promise<void> {
  await graphRequest(session, 'POST', id, { status: 'PAUSED' }, { retrySafe: true });
}

/** The platform's detail of a refusal, as the failed job shows it. */
export function platformDetailOf(error: PlatformRejected): PlatformDetail {
  const cause = (error.cause ?? {}) as { userTitle?: string; userMessage?: string };
  return {
    code: Number(error.extra.platformCode),
    ...(error.extra.platformSubcode !== undefined ? { subcode: Number(error.extra.platformSubcode) } : {}),
    ...(cause.userTitle ? { userTitle: cause.userTitle } : {}),
    ...(cause.userMessage ? { userMessage: cause.userMessage } : {}),
    ...(error.extra.fbtraceId ? { traceId: String(error.extra.fbtraceId) } : {}),
  };
}

const BY_SUBCODE: Record<number, LaunchErrorCode> = {
  1885272: 'BUDGET_TOO_LOW',
  2490408: 'INVALID_OPTIMIZATION_FOR_OBJECTIVE',
  1815430: 'INVALID_OPTIMIZATION_FOR_OBJECTIVE',
  3858082: 'CREATIVE_OPTION_REQUIRED',
  3858504: 'CREATIVE_OPTION_REQUIRED',
  1487202: 'PAGE_NOT_AUTHORIZED',
  1359188: 'ACCOUNT_NOT_ELIGIBLE',
};

/**
 * A refusal in the launch's words (the error table of docs/errors.md, "Launch errors"), dispatched on
 * code and subcode; the title is read only to tell "Budget Is Too Low", which comes without a subcode.
 * `grantedScopes`: the permissions the connection is known to hold (undefined: unknown).
 */
export function launchRefusalOf(error: unknown, step: string, grantedScopes: string[] | undefined): unknown {
  if (!(error instanceof PlatformRejected)) return error;
  const detail = platformDetailOf(error);
  const code = Number(detail.code);
  const refused = (launchCode: LaunchErrorCode, extra = '') =>
    new LaunchRefused('social', launchCode, `The platform refused the ${step}: ${error.message}${extra}`, detail, error, minimumOf(launchCode));
  // "budget too low" names its minimum the same way wherever it is answered (docs/decisions.md, "One dry-run shape")
  const minimumOf = (launchCode: LaunchErrorCode) => {
    if (launchCode !== 'BUDGET_TOO_LOW') return undefined;
    const minimum = minimumFromMessage(detail.userMessage ?? error.message, '');
    return minimum?.currency ? minimum : undefined;
  };
  if (code === 190 || code === 102) return new PlatformAuthExpired('social', error.message, error);
  if (code === 10 || (code >= 200 && code <= 299)) {
    const permission = step.startsWith('creative') ? 'pages_manage_ads' : 'ads_management';
    if (!grantedScopes?.includes(permission)) return new ScopeMissing('social', permission);
    return refused(step.startsWith('creative') ? 'PAGE_NOT_AUTHORIZED' : 'ACCOUNT_NOT_ELIGIBLE');
  }
  if (code === 368) return refused('ACCOUNT_NOT_ELIGIBLE');
  const bySubcode = detail.subcode === undefined ? undefined : BY_SUBCODE[detail.subcode];
  if (code === 100 && !bySubcode && /budget is too low/i.test(detail.userTitle ?? '')) return refused('BUDGET_TOO_LOW');
  return refused(bySubcode ?? 'PLATFORM_REJECTED');
}

/** The video's preferred thumbnail (its first when none is preferred): a video creative names one. Undefined: none yet. */
export async function videoThumbnail(session: SocialSession, videoId: string): Promise<{ url: string; width: number; height: number } | undefined> {
  const { body } = await graphRequest<{ data?: Array<{ uri?: string; is_preferred?: boolean; width?: number; height?: number }> }>(
    session,
    'GET',
    `${videoId}/thumbnails`,
    { fields: 'id,uri,is_preferred,width,height' },
  );
  const thumbnails = (body.data ?? []).filter((thumbnail) => thumbnail.uri);
  const chosen = thumbnails.find((thumbnail) => thumbnail.is_preferred) ?? thumbnails[0];
  return chosen ? { url: String(chosen.uri), width: Number(chosen.width ?? 0), height: Number(chosen.height ?? 0) } : undefined;
}

/** The account's images by hash, with their URL and size (one read for all of a launch's images). */
export async function imagesByHash(
  session: SocialSession,
  adAccountId: string,
  hashes: string[],
): Promise<Map<string, { url: string; width: number; height: number }>> {
  const { body } = await graphRequest<{ data?: Array<{ hash?: string; url?: string; width?: number; height?: number; status?: string }> }>(
    session,
    'GET',
    `act_${adAccountId}/adimages`,
    { hashes: JSON.stringify(hashes), fields: 'hash,url,width,height,status' },
  );
  return new Map(
    (body.data ?? [])
      .filter((image) => image.hash && image.status !== 'DELETED')
      .map((image) => [String(image.hash), { url: String(image.url ?? ''), width: Number(image.width ?? 0), height: Number(image.height ?? 0) }]),
  );
}
