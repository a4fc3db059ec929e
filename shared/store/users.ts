import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PlatformNotConnected } from '../core/errors.ts';
import { SECRET_FIELDS, type ConnectedPlatform, type Connections } from '../schemas/users.ts';
import { documentStore, mainTableName } from './client.ts';
import { open } from './sealing.ts';
import { keys } from './keys.ts';

/**
 * Users of a tenant, one item each: TENANT#<tenantId>#USER#<userId> / USER.
 * Connection secrets are sealed (sealing.ts) before they are written. Reads are here; writes in
 * user-writes.ts, so a read-only function's bundle holds no write.
 */
export type StoredConnections = { [P in ConnectedPlatform]?: Record<string, string> };

export interface User {
  tenantId: string;
  userId: string;
  createdAt: string;
  connections: StoredConnections;
}

export const sealOwner = (tenantId: string, userId: string, platform: string, field: string) => `${tenantId}/${userId}/${platform}/${field}`;

/** The user of this tenant, or undefined: a user of another tenant is simply not found. */
export async function findUser(tenantId: string, userId: string): Promise<User | undefined> {
  const result = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.user(tenantId, userId) }));
  return userOfItem(result.Item);
}

/** The user an item of the table holds (read alone, or with others in one request). */
export function userOfItem(item: Record<string, unknown> | undefined): User | undefined {
  if (!item) return undefined;
  const { tenantId, userId, createdAt, connections } = item as unknown as User;
  return { tenantId, userId, createdAt, connections: connections ?? {} };
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

/**
 * The connections as a client may see them: every non-secret field, no secret, with their health
 * (`status`, `connectedAt`, `connectedVia`; a connection stored before health was kept reads as an
 * active token connection made with the user).
 */
export function publicConnections(user: User): Record<string, Record<string, unknown>> {
  const shown: Record<string, Record<string, unknown>> = {};
  for (const [platform, stored] of Object.entries(user.connections) as Array<[ConnectedPlatform, Record<string, string>]>) {
    const hidden = [...(SECRET_FIELDS[platform] as readonly string[]), ...BOOKKEEPING_FIELDS];
    const { scopes, ...fields } = Object.fromEntries(Object.entries(stored).filter(([field]) => !hidden.includes(field)));
    shown[platform] = { status: 'active', connectedAt: user.createdAt, connectedVia: 'token', ...fields, ...(scopes ? { scopes: scopes.split(' ') } : {}) };
  }
  return shown;
}

/** What the service keeps for itself: when it last changed, checked or renewed a connection, and which upstream grant backs it. */
const BOOKKEEPING_FIELDS = ['statusChangedAt', 'lastCheckedAt', 'lastRefreshedAt', 'grantRef'];

/** The scopes a connection made through a link was granted; undefined for one given as tokens (taken to hold every scope until refused). */
export function grantedScopes(user: User, platform: ConnectedPlatform): string[] | undefined {
  return user.connections[platform]?.scopes?.split(/[ ,]+/).filter(Boolean);
}
