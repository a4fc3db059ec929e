import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Connect links and their round trips (docs/decisions.md "Connect links"), in the main table:
 * - the link a tenant created: CONNECT_LINK#<linkId>, valid 24 hours, completed once;
 * - one consent round trip: CONNECT_STATE#<hash of state>, valid 10 minutes, spent on first use;
 * - a pending account choice: CONNECT_SELECT#<attemptId>, holding the sealed grant until it is made;
 * - who holds an upstream grant: GRANT#<platform>#<grant ref> / <tenantId>#<userId>, so a disconnect
 *   revokes upstream only when no other connection shares the grant (docs/platforms.md "What every connect round trip shares").
 * Reads are here, writes in connect-link-writes.ts. Items carry a TTL (`expiresAt`, epoch seconds) a day past their validity, so an expired link is
 * still told apart from an unknown one for that day.
 */
const TTL_MARGIN_MS = 86_400_000;
export const ttl = (validUntil: number) => Math.ceil((validUntil + TTL_MARGIN_MS) / 1000);

export interface ConnectLink {
  linkId: string;
  tenantId: string;
  userId: string;
  platform: Platform;
  redirectUri: string;
  /** the client's own state, handed back unchanged */
  clientState?: string;
  createdAt: string;
  /** epoch ms */
  validUntil: number;
  completedAt?: string;
}

/** What a consent round trip is bound to: its link (and where the person goes back), and the browser. */
export interface ConnectAttempt extends Pick<ConnectLink, 'linkId' | 'tenantId' | 'userId' | 'platform' | 'redirectUri' | 'clientState' | 'validUntil'> {
  /** hash of the browser's binding cookie */
  bindingHash: string;
  /** the PKCE verifier, sealed (search ads) */
  sealedCodeVerifier?: string;
}

export interface PendingSelection extends Omit<ConnectAttempt, 'sealedCodeVerifier'> {
  attemptId: string;
  /** the discovered grant (tokens, accounts, Pages), sealed */
  sealedGrant: string;
}

export async function getItem<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _ttl, ...fields } = Item;
  return fields as T;
}

export const findLink = (linkId: string) => getItem<ConnectLink>(keys.connectLink(linkId));
/** A one-time state's attempt, read without spending it. */
export const findAttempt = (stateHash: string) => getItem<ConnectAttempt & { spentAt?: string }>(keys.connectAttempt(stateHash));

export async function findSelection(attemptId: string): Promise<(PendingSelection & { spentAt?: string }) | undefined> {
  return getItem<PendingSelection & { spentAt?: string }>(keys.connectSelection(attemptId));
}

/** Whether a connection other than this user's holds the same upstream grant. */
export async function grantHasOtherHolders(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<boolean> {
  const { Items = [] } = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.grantHoldersPk(platform, grantRef) },
      Limit: 2,
      ConsistentRead: true,
    }),
  );
  return Items.some((item) => item.sk !== `${tenantId}#${userId}`);
}
