import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { UserAlreadyExists, UserNotFound } from '../core/errors.ts';
import { SECRET_FIELDS, type ConnectedPlatform, type Connections } from '../schemas/users.ts';
import type { AuditDraft, AuditToStore } from '../core/audit.ts';
import { sendAudited, writeAuditedIfConditionHolds } from './audit-event-writes.ts';
import { documentStore, failedCondition, LOST_RACE, mainTableName, retryOnConflict, writeIfConditionHolds } from './client.ts';
import { seal } from './sealing.ts';
import { findUser, sealOwner, type StoredConnections, type User } from './users.ts';
import { keys } from './keys.ts';

/** Creating users and changing their connections (users.ts reads them). */

/** A new connection's health fields (docs/decisions.md "Connection health"). */
const connectionHealth = (via: 'token' | 'link', connectedAt: string) => ({ status: 'active', connectedAt, connectedVia: via });
function sealConnections(tenantId: string, userId: string, connections: Connections, connectedAt: string): StoredConnections {
  const stored: StoredConnections = {};
  for (const platform of Object.keys(SECRET_FIELDS) as ConnectedPlatform[]) {
    const connection = connections[platform] as Record<string, string | undefined> | undefined;
    if (!connection) continue;
    const item: Record<string, string> = {};
    for (const [field, value] of Object.entries(connection)) {
      if (value === undefined) continue;
      const secret = (SECRET_FIELDS[platform] as readonly string[]).includes(field);
      item[field] = secret ? seal(value, sealOwner(tenantId, userId, platform, field)) : value;
    }
    stored[platform] = { ...item, ...connectionHealth('token', connectedAt) };
  }
  return stored;
}

export async function createUser(tenantId: string, userId: string, connections: Connections, audit: AuditToStore | undefined): Promise<User> {
  const createdAt = clock.date().toISOString();
  const user: User = { tenantId, userId, createdAt, connections: sealConnections(tenantId, userId, connections, createdAt) };
  try {
    await sendAudited(
      new PutCommand({
        TableName: mainTableName(),
        Item: { ...keys.user(tenantId, userId), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
      audit,
    );
  } catch (error) {
    if (failedCondition(error) !== undefined) throw new UserAlreadyExists();
    throw error;
  }
  return user;
}

/** Remembers a non-secret connection field discovered later (the photo-page account id, for one). */
export async function rememberConnectionField(user: User, platform: ConnectedPlatform, field: string, value: string): Promise<void> {
  if ((SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is a secret field`);
  await setConnectionField(user, platform, field, value);
}

/** Sets one field of an existing connection, in the table and in the user read for this request. */
async function setConnectionField(user: User, platform: ConnectedPlatform, field: string, stored: string): Promise<void> {
  await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: 'SET connections.#platform.#field = :value',
      ConditionExpression: 'attribute_exists(connections.#platform)',
      ExpressionAttributeNames: { '#platform': platform, '#field': field },
      ExpressionAttributeValues: { ':value': stored },
    }),
  );
  const connection = user.connections[platform];
  if (connection) connection[field] = stored;
}

/**
 * Marks a connection `reconnect_required` (its grant expired or was revoked). Returns whether this
 * call changed it, so the event that tells the client is sent once.
 */
export function markReconnectRequired(user: User, platform: ConnectedPlatform): Promise<boolean> {
  const audit: AuditDraft = {
    tenantId: user.tenantId,
    action: 'connection.reconnect_required',
    target: { type: 'connection', id: platform },
    userId: user.userId,
    platform,
    changes: { status: { to: 'reconnect_required' } },
  };
  return writeAuditedIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: 'SET connections.#platform.#status = :reconnect, connections.#platform.statusChangedAt = :now',
      ConditionExpression:
        'attribute_exists(connections.#platform) AND (attribute_not_exists(connections.#platform.#status) OR connections.#platform.#status <> :reconnect)',
      ExpressionAttributeNames: { '#platform': platform, '#status': 'status' },
      ExpressionAttributeValues: { ':reconnect': 'reconnect_required', ':now': clock.date().toISOString() },
    }),
    audit,
  );
}

/**
 * Removes the connection the request read (its tokens with it, sealed as stored), with the write's
 * audit event in the same transaction; undefined when the user has no such connection, or it changed
 * since it was read (a concurrent reconnect: that connection is not this request's to remove).
 */
export async function takeConnection(user: User, platform: ConnectedPlatform, audit: AuditToStore | undefined): Promise<Record<string, string> | undefined> {
  const read = user.connections[platform] as Record<string, string> | undefined;
  if (!read) return undefined;
  const removed = await writeAuditedIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: 'REMOVE connections.#platform',
      // a connection stored before health was kept has no connectedAt
      ...(read.connectedAt
        ? { ConditionExpression: 'connections.#platform.connectedAt = :connectedAt', ExpressionAttributeValues: { ':connectedAt': read.connectedAt } }
        : { ConditionExpression: 'attribute_exists(connections.#platform) AND attribute_not_exists(connections.#platform.connectedAt)' }),
      ExpressionAttributeNames: { '#platform': platform },
    }),
    audit,
  );
  return removed ? read : undefined;
}

/**
 * Stores a connection made through a connect link, replacing any the user had for the platform:
 * secrets sealed, health fields fresh, the audit event in the same transaction. Written only over the
 * connection as read (a concurrent change is read again first), so the grant reference answered is
 * the one really replaced.
 */
export async function saveLinkedConnection(
  user: User,
  platform: ConnectedPlatform,
  fields: Record<string, string>,
  secrets: Record<string, string>,
  audit: AuditDraft,
): Promise<{ replacedGrantRef?: string }> {
  const item: Record<string, string> = { ...fields, ...connectionHealth('link', clock.date().toISOString()) };
  for (const [field, value] of Object.entries(secrets)) {
    if (!(SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is not a secret field`);
    item[field] = seal(value, sealOwner(user.tenantId, user.userId, platform, field));
  }
  let read = user;
  const replaced = await retryOnConflict('The user’s connection', async () => {
    const before = read.connections[platform] as Record<string, string> | undefined;
    const condition = before?.connectedAt
      ? { ConditionExpression: 'connections.#platform.connectedAt = :before', ExpressionAttributeValues: { ':item': item, ':before': before.connectedAt } }
      : before
        ? {
            ConditionExpression: 'attribute_exists(connections.#platform) AND attribute_not_exists(connections.#platform.connectedAt)',
            ExpressionAttributeValues: { ':item': item },
          }
        : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(connections.#platform)', ExpressionAttributeValues: { ':item': item } };
    const written = await writeAuditedIfConditionHolds(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: keys.user(user.tenantId, user.userId),
        UpdateExpression: 'SET connections.#platform = :item',
        ExpressionAttributeNames: { '#platform': platform },
        ...condition,
      }),
      audit,
    );
    if (written) return { before };
    const again = await findUser(user.tenantId, user.userId);
    if (!again) throw new UserNotFound();
    read = again;
    return LOST_RACE;
  });
  user.connections[platform] = item;
  return replaced.before?.grantRef ? { replacedGrantRef: replaced.before.grantRef } : {};
}

/**
 * Records what a health check learnt of a connection: plain fields as they are, secrets (a renewed
 * access token) sealed; in one write, only while the connection exists.
 */
export function saveConnectionHealth(
  user: User,
  platform: ConnectedPlatform,
  fields: Record<string, string>,
  secrets: Record<string, string> = {},
): Promise<boolean> {
  const values: Record<string, string> = { ...fields };
  for (const [field, value] of Object.entries(secrets)) {
    if (!(SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is not a secret field`);
    values[field] = seal(value, sealOwner(user.tenantId, user.userId, platform, field));
  }
  const names = Object.keys(values);
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: `SET ${names.map((_, index) => `connections.#platform.#f${index} = :v${index}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(connections.#platform)',
      ExpressionAttributeNames: { '#platform': platform, ...Object.fromEntries(names.map((name, index) => [`#f${index}`, name])) },
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, values[name]])),
    }),
  );
}
