import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { Platform } from '../core/errors.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { getItem, ttl, type ConnectAttempt, type ConnectLink, type PendingSelection } from './connect-links.ts';
import { keys } from './keys.ts';

/** Writing connect links, round trips, pending choices and grant holders (connect-links.ts reads them). */

export async function saveLink(link: ConnectLink): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.connectLink(link.linkId), ...link, expiresAt: ttl(link.validUntil) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Marks a link completed; false when it already was (a link completes once). */
export function completeLink(linkId: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.connectLink(linkId),
      UpdateExpression: 'SET completedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(completedAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
}

export async function saveAttempt(stateHash: string, attempt: ConnectAttempt): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.connectAttempt(stateHash), ...attempt, expiresAt: ttl(attempt.validUntil) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Spends a state: the attempt it names, and whether this call spent it (a second callback with the
 * same state finds it spent). Undefined when no attempt has this state.
 */
export async function spendAttempt(stateHash: string): Promise<{ attempt: ConnectAttempt; firstUse: boolean } | undefined> {
  const spent = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.connectAttempt(stateHash),
      UpdateExpression: 'SET spentAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(spentAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
  const attempt = await getItem<ConnectAttempt & { spentAt?: string }>(keys.connectAttempt(stateHash));
  if (!attempt) return undefined;
  const { spentAt: _spentAt, ...fields } = attempt;
  return { attempt: fields, firstUse: spent };
}

export async function saveSelection(selection: PendingSelection): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.connectSelection(selection.attemptId), ...selection, expiresAt: ttl(selection.validUntil) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Spends a pending choice; false when it was already made. */
export function spendSelection(attemptId: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.connectSelection(attemptId),
      UpdateExpression: 'SET spentAt = :now REMOVE sealedGrant',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(spentAt)',
      ExpressionAttributeValues: { ':now': clock.date().toISOString() },
    }),
  );
}

export async function addGrantHolder(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<void> {
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { ...keys.grantHolder(platform, grantRef, tenantId, userId), tenantId, userId } }),
  );
}

export async function removeGrantHolder(platform: Platform, grantRef: string, tenantId: string, userId: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: keys.grantHolder(platform, grantRef, tenantId, userId) }));
}
