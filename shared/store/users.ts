import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock.ts';
import { PlatformNotConnected, UserAlreadyExists } from '../errors.ts';
import { SECRET_FIELDS, type ConnectedPlatform, type Connections } from '../schemas/users.ts';
import { documentStore, mainTableName } from './client.ts';
import { open, seal } from './sealing.ts';

/**
 * Users of a tenant, one item each: TENANT#<tenantId>#USER#<userId> / USER.
 * Connection secrets are sealed (sealing.ts) before they are written.
 */
type StoredConnections = { [P in ConnectedPlatform]?: Record<string, string> };

export interface User {
  tenantId: string;
  userId: string;
  createdAt: string;
  connections: StoredConnections;
}

const userKey = (tenantId: string, userId: string) => ({ pk: `TENANT#${tenantId}#USER#${userId}`, sk: 'USER' });
const sealOwner = (tenantId: string, userId: string, platform: string, field: string) =>
  `${tenantId}/${userId}/${platform}/${field}`;

function sealConnections(tenantId: string, userId: string, connections: Connections): StoredConnections {
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
    stored[platform] = item;
  }
  return stored;
}

export async function createUser(tenantId: string, userId: string, connections: Connections): Promise<User> {
  const user: User = { tenantId, userId, createdAt: clock.date().toISOString(), connections: sealConnections(tenantId, userId, connections) };
  try {
    await documentStore().send(
      new PutCommand({
        TableName: mainTableName(),
        Item: { ...userKey(tenantId, userId), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new UserAlreadyExists();
    throw error;
  }
  return user;
}

/** The user of this tenant, or undefined: a user of another tenant is simply not found. */
export async function findUser(tenantId: string, userId: string): Promise<User | undefined> {
  const result = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: userKey(tenantId, userId) }));
  if (!result.Item) return undefined;
  const { tenantId: storedTenant, userId: storedUser, createdAt, connections } = result.Item;
  return { tenantId: storedTenant, userId: storedUser, createdAt, connections: connections ?? {} };
}

/** The user's connection to `platform` with its secrets opened; PLATFORM_NOT_CONNECTED when absent. */
export function openConnection<P extends ConnectedPlatform>(user: User, platform: P): NonNullable<Connections[P]> {
  const stored = user.connections[platform];
  if (!stored) throw new PlatformNotConnected(platform);
  const opened: Record<string, string> = {};
  for (const [field, value] of Object.entries(stored)) {
    const secret = (SECRET_FIELDS[platform] as readonly string[]).includes(field);
    opened[field] = secret ? open(value, sealOwner(user.tenantId, user.userId, platform, field)) : value;
  }
  return opened as NonNullable<Connections[P]>;
}

/** The connections as a client may see them: every non-secret field, no secret. */
export function publicConnections(user: User): Record<string, Record<string, string>> {
  const shown: Record<string, Record<string, string>> = {};
  for (const [platform, stored] of Object.entries(user.connections) as Array<[ConnectedPlatform, Record<string, string>]>) {
    const secrets = SECRET_FIELDS[platform] as readonly string[];
    shown[platform] = Object.fromEntries(Object.entries(stored).filter(([field]) => !secrets.includes(field)));
  }
  return shown;
}

/** Remembers a non-secret connection field discovered later (the photo-page account id, for one). */
export async function rememberConnectionField(user: User, platform: ConnectedPlatform, field: string, value: string): Promise<void> {
  if ((SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is a secret field`);
  await setConnectionField(user, platform, field, value);
}

/** Replaces a secret of a connection (a refreshed access token), sealed like the others. */
export async function replaceConnectionSecret(user: User, platform: ConnectedPlatform, field: string, value: string): Promise<void> {
  if (!(SECRET_FIELDS[platform] as readonly string[]).includes(field)) throw new Error(`${field} is not a secret field`);
  await setConnectionField(user, platform, field, seal(value, sealOwner(user.tenantId, user.userId, platform, field)));
}

/** Sets one field of an existing connection, in the table and in the user read for this request. */
async function setConnectionField(user: User, platform: ConnectedPlatform, field: string, stored: string): Promise<void> {
  await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: userKey(user.tenantId, user.userId),
      UpdateExpression: 'SET connections.#platform.#field = :value',
      ConditionExpression: 'attribute_exists(connections.#platform)',
      ExpressionAttributeNames: { '#platform': platform, '#field': field },
      ExpressionAttributeValues: { ':value': stored },
    }),
  );
  const connection = user.connections[platform];
  if (connection) connection[field] = stored;
}
