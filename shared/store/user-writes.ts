import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { UserAlreadyExists } from '../core/errors.ts';
import { SECRET_FIELDS, type ConnectedPlatform, type Connections } from '../schemas/users.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { seal } from './sealing.ts';
import { sealOwner, type StoredConnections, type User } from './users.ts';
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

export async function createUser(tenantId: string, userId: string, connections: Connections): Promise<User> {
  const createdAt = clock.date().toISOString();
  const user: User = { tenantId, userId, createdAt, connections: sealConnections(tenantId, userId, connections, createdAt) };
  try {
    await documentStore().send(
      new PutCommand({
        TableName: mainTableName(),
        Item: { ...keys.user(tenantId, userId), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new UserAlreadyExists();
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
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: 'SET connections.#platform.#status = :reconnect, connections.#platform.statusChangedAt = :now',
      ConditionExpression:
        'attribute_exists(connections.#platform) AND (attribute_not_exists(connections.#platform.#status) OR connections.#platform.#status <> :reconnect)',
      ExpressionAttributeNames: { '#platform': platform, '#status': 'status' },
      ExpressionAttributeValues: { ':reconnect': 'reconnect_required', ':now': clock.date().toISOString() },
    }),
  );
}

/** Removes a connection and its tokens; the stored connection removed (secrets still sealed), or undefined when there was none. */
export async function takeConnection(user: User, platform: ConnectedPlatform): Promise<Record<string, string> | undefined> {
  try {
    const { Attributes } = await documentStore().send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: keys.user(user.tenantId, user.userId),
        UpdateExpression: 'REMOVE connections.#platform',
        ConditionExpression: 'attribute_exists(connections.#platform)',
        ExpressionAttributeNames: { '#platform': platform },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return (Attributes?.connections as StoredConnections | undefined)?.[platform] ?? {};
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/**
 * Stores a connection made through a connect link, replacing any the user had for the platform:
 * secrets sealed, health fields fresh. Answers the replaced connection's grant reference, if any.
 */
export async function saveLinkedConnection(
  user: User,
  platform: ConnectedPlatform,
  fields: Record<string, string>,
  secrets: Record<string, string>,
): Promise<{ replacedGrantRef?: string }> {
  const item: Record<string, string> = { ...fields, ...connectionHealth('link', clock.date().toISOString()) };
  for (const [field, value] of Object.entries(secrets)) {
    if (!(SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is not a secret field`);
    item[field] = seal(value, sealOwner(user.tenantId, user.userId, platform, field));
  }
  const { Attributes } = await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.user(user.tenantId, user.userId),
      UpdateExpression: 'SET connections.#platform = :item',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#platform': platform },
      ExpressionAttributeValues: { ':item': item },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const replaced = (Attributes?.connections as StoredConnections | undefined)?.[platform];
  user.connections[platform] = item;
  return replaced?.grantRef ? { replacedGrantRef: replaced.grantRef } : {};
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
