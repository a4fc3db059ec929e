import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NormalizedLead } from '../schemas/leads.ts';
import { documentStore, mainTableName } from './client.ts';
import { decodeCursor, newestFirstPage } from './cursor.ts';
import { keys } from './keys.ts';
import { open } from './sealing.ts';
import { settingsOfItem, type VersionedSettings } from './tenant-settings.ts';
import { type User, userOfItem } from './users.ts';

/**
 * Leads (docs/leads.md): stored once per (tenant, platform, lead), sealed (every value of a person is
 * AES-GCM at rest, bound to its tenant and lead), kept LEADS_RETENTION_DAYS. Two items a lead:
 *   TENANT#<t>#LEAD#<platform>#<leadId> / LEAD       the marker: unique, names the user whose row it is
 *   TENANT#<t>#USER#<u>#LEADS / <createdAt>#<platform>#<leadId>   the row, sorted by submission
 * The row carries what a listing filters on (platform, form, campaign) in clear: ids, never a value.
 */
type Platform = NormalizedLead['platform'];
export const leadOwner = (tenantId: string, platform: Platform, leadId: string) => `lead:${tenantId}:${platform}:${leadId}`;

export interface StoredLead {
  userId: string;
  receivedAt: string;
  lead: NormalizedLead;
}

/** Whether the tenant has this lead already (a webhook, the sweep and a backfill all ask before they read). */
export async function leadKnown(tenantId: string, platform: Platform, leadId: string): Promise<boolean> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.leadMarker(tenantId, platform, leadId), ConsistentRead: true }),
  );
  return Item !== undefined;
}

/**
 * What taking one lead for one tenant reads, in one consistent request: whether the tenant has the
 * lead already, the subscribed users (their connections), and the tenant's settings (the webhook the
 * lead's event goes to). At most 98 users: a tenant subscribes a Page or account through a few.
 */
export async function leadReading(
  tenantId: string,
  platform: Platform,
  leadId: string,
  userIds: readonly string[],
): Promise<{ known: boolean; users: User[]; settings: VersionedSettings }> {
  const markerKey = keys.leadMarker(tenantId, platform, leadId);
  const settingsKey = keys.settings(tenantId);
  const userKeys = [...new Set(userIds)].slice(0, 98).map((userId) => keys.user(tenantId, userId));
  const wanted = [markerKey, settingsKey, ...userKeys];
  const found: Record<string, unknown>[] = [];
  let pending: Array<Record<string, unknown>> = wanted;
  for (let round = 0; pending.length > 0; round++) {
    if (round === 5) throw new Error('the store left part of a read undone five times; the lead is taken again');
    const { Responses, UnprocessedKeys } = await documentStore().send(
      new BatchGetCommand({ RequestItems: { [mainTableName()]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(Responses?.[mainTableName()] ?? []));
    pending = UnprocessedKeys?.[mainTableName()]?.Keys ?? [];
  }
  const itemOf = (key: { pk: string; sk: string }) => found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return {
    known: itemOf(markerKey) !== undefined,
    // in the subscriptions' order: the first whose connection reads the lead takes it
    users: userKeys.map((key) => userOfItem(itemOf(key))).filter((user): user is User => user !== undefined),
    settings: settingsOfItem(itemOf(settingsKey)),
  };
}

export interface LeadFilter {
  platform?: Platform;
  formId?: string;
  campaignId?: string;
  since?: string;
  until?: string;
}

/** A page of a user's leads, newest first, opened. */
export async function listLeads(tenantId: string, userId: string, filter: LeadFilter, limit: number, pagination?: string) {
  const conditions = ['pk = :pk'];
  const values: Record<string, unknown> = { ':pk': keys.leadsPk(tenantId, userId) };
  const before = pagination ? decodeCursor(pagination, /^\d{4}-\d{2}-\d{2}T[^#]+#(social|professional)#.+$/) : undefined;
  const upper = [before, filter.until ? `${filter.until}~` : undefined].filter((value): value is string => value !== undefined).sort()[0];
  if (filter.since && upper) {
    conditions.push('sk BETWEEN :since AND :upper');
    Object.assign(values, { ':since': filter.since, ':upper': upper });
  } else if (filter.since) {
    conditions.push('sk >= :since');
    values[':since'] = filter.since;
  } else if (upper) {
    conditions.push('sk < :upper');
    values[':upper'] = upper;
  }
  const filters: string[] = [];
  for (const field of ['platform', 'formId', 'campaignId'] as const) {
    const value = filter[field];
    if (value) {
      filters.push(`${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  const { items, next } = await newestFirstPage(
    {
      TableName: mainTableName(),
      KeyConditionExpression: conditions.join(' AND '),
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      ExpressionAttributeValues: values,
    },
    limit,
  );
  const leads = items.map((item) => ({
    receivedAt: String(item.receivedAt),
    lead: JSON.parse(open(String(item.sealed), leadOwner(tenantId, item.platform as Platform, String(item.leadId)))) as NormalizedLead,
  }));
  return { leads, ...(next ? { next } : {}) };
}

/** A lead of the tenant, opened, with the user it was delivered to; undefined when the tenant has none by that id (never had it, or erased it). */
export async function findLead(tenantId: string, platform: Platform, leadId: string): Promise<{ userId: string; lead: NormalizedLead } | undefined> {
  const { Item: marker } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.leadMarker(tenantId, platform, leadId), ConsistentRead: true }),
  );
  if (!marker?.rowSk) return undefined;
  const userId = String(marker.userId);
  const { Item: row } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: { pk: keys.leadsPk(tenantId, userId), sk: String(marker.rowSk) }, ConsistentRead: true }),
  );
  if (!row?.sealed) return undefined;
  return { userId, lead: JSON.parse(open(String(row.sealed), leadOwner(tenantId, platform, leadId))) as NormalizedLead };
}
