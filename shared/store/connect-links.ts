import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock.ts';
import type { Platform } from '../errors.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';

/**
 * Connect links and their round trips (DESIGN.md "Connect links"), in the main table:
 * - the link a tenant created: CONNECT_LINK#<linkId>, valid 24 hours, completed once;
 * - one consent round trip: CONNECT_STATE#<hash of state>, valid 10 minutes, spent on first use;
 * - a pending account choice: CONNECT_SELECT#<attemptId>, holding the sealed grant until it is made;
 * - who holds an upstream grant: GRANT#<platform>#<grant ref> / <tenantId>#<userId>, so a disconnect
 *   revokes upstream only when no other connection shares the grant (contracts/connect.md §0.5).
 * Items carry a TTL (`expiresAt`, epoch seconds) a day past their validity, so an expired link is
 * still told apart from an unknown one for that day.
 */
const TTL_MARGIN_MS = 86_400_000;
const ttl = (validUntil: number) => Math.ceil((validUntil + TTL_MARGIN_MS) / 1000);

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

/** What a consent round trip is bound to. */
export interface ConnectAttempt {
  linkId: string;
  tenantId: string;
  userId: string;
  platform: Platform;
  redirectUri: string;
  clientState?: string;
  /** hash of the browser's binding cookie */
  bindingHash: string;
  /** the PKCE verifier, sealed (search ads) */
  sealedCodeVerifier?: string;
  validUntil: number;
}

export interface PendingSelection extends Omit<ConnectAttempt, 'sealedCodeVerifier'> {
  attemptId: string;
  /** the discovered grant (tokens, accounts, Pages), sealed */
  sealedGrant: string;
}

const linkKey = (linkId: string) => ({ pk: `CONNECT_LINK#${linkId}`, sk: 'LINK' });
const attemptKey = (stateHash: string) => ({ pk: `CONNECT_STATE#${stateHash}`, sk: 'ATTEMPT' });
const selectionKey = (attemptId: string) => ({ pk: `CONNECT_SELECT#${attemptId}`, sk: 'SELECTION' });
const holderKey = (platform: Platform, grantRef: string, tenantId: string, userId: string) => ({ pk: `GRANT#${platform}#${grantRef}`, sk: `${tenantId}#${userId}` });

async function getItem<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _ttl, ...fields } = Item;
  return fields as T;
}

export async function saveLink(link: ConnectLink): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...linkKey(link.linkId), ...link, expiresAt: ttl(link.validUntil) }, ConditionExpression: 'attribute_not_exists(pk)' }));
}

export const findLink = (linkId: string) => getItem<ConnectLink>(linkKey(linkId));

/** Marks a link completed; false when it already was (a link completes once). */
export function completeLink(linkId: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: linkKey(linkId),
      UpdateExpression: 'SET completedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completedAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
}

export async function saveAttempt(stateHash: string, attempt: ConnectAttempt): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...attemptKey(stateHash), ...attempt, expiresAt: ttl(attempt.validUntil) }, ConditionExpression: 'attribute_not_exists(pk)' }));
}

/**
 * Spends a state: the attempt it names, and whether this call spent it (a second callback with the
 * same state finds it spent). Undefined when no attempt has this state.
 */
export async function spendAttempt(stateHash: string): Promise<{ attempt: ConnectAttempt; firstUse: boolean } | undefined> {
  const spent = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: attemptKey(stateHash),
      UpdateExpression: 'SET spentAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(spentAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
  const attempt = await getItem<ConnectAttempt & { spentAt?: string }>(attemptKey(stateHash));
  if (!attempt) return undefined;
  const { spentAt: _spentAt, ...fields } = attempt;
  return { attempt: fields, firstUse: spent };
}

export async function saveSelection(selection: PendingSelection): Promise<void> {
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { ...selectionKey(selection.attemptId), ...selection, expiresAt: ttl(selection.validUntil) }, ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

export async function findSelection(attemptId: string): Promise<(PendingSelection & { spentAt?: string }) | undefined> {
  return getItem<PendingSelection & { spentAt?: string }>(selectionKey(attemptId));
}

/** Spends a pending choice; false when it was already made. */
export function spendSelection(attemptId: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: selectionKey(attemptId),
      UpdateExpression: 'SET spentAt = :now REMOVE sealedGrant',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(spentAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
}

export async function addGrantHolder(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...holderKey(platform, grantRef, tenantId, userId), tenantId, userId } }));
}

export async function removeGrantHolder(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: holderKey(platform, grantRef, tenantId, userId) }));
}

/** Whether a connection other than this user's holds the same upstream grant. */
export async function grantHasOtherHolders(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<boolean> {
  const { Items = [] } = await documentStore().send(
    new QueryCommand({ TableName: mainTableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `GRANT#${platform}#${grantRef}` }, Limit: 2, ConsistentRead: true }),
  );
  return Items.some((item) => item.sk !== `${tenantId}#${userId}`);
}
