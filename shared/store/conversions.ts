import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PLATFORMS, type Platform } from '../core/errors.ts';
import type { ConversionStatus } from '../schemas/conversion-values.ts';
import { documentStore, mainTableName } from './client.ts';
import { decodeCursor, newestFirstPage } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * Conversions (docs/conversions.md): an event and its delivery to each destination in one partition,
 *   TENANT#<t>#CONVERSION#<eventId> / EVENT                               what happened (no person's data)
 *   TENANT#<t>#CONVERSION#<eventId> / TO#<platform>#<destinationId>       its delivery: an item of the `conversions` flow
 * and a lead's reported outcome per stage beside the lead's marker,
 *   TENANT#<t>#LEAD#<platform>#<leadId> / OUTCOME#<stage>                 once per (lead, stage)
 * and each event listed under its user, with where it stands on each platform (kept in step with
 * its deliveries by the writes that change them),
 *   TENANT#<t>#USER#<u>#CONVERSIONS / <createdAt>#<eventId>
 * A delivery holds the event as the platform receives it, with hashes only. Reads are here; writes in
 * conversion-writes.ts.
 */
export type { ConversionStatus } from '../schemas/conversion-values.ts';

export interface ConversionEvent {
  eventId: string;
  userId: string;
  stage: string;
  occurredAt: string;
  leadId?: string;
  leadPlatform?: 'social' | 'professional';
  createdAt: string;
}

export interface ConversionDelivery {
  pk: string;
  sk: string;
  tenantId: string;
  userId: string;
  eventId: string;
  platform: Platform;
  destinationId: string;
  stage: string;
  occurredAtMs: number;
  status: ConversionStatus;
  error?: { code: string; message: string };
  /** the event as the platform receives it: ids, times, the stage's names, hashes */
  payload: Record<string, unknown>;
  /** the delivery that must end first (an earlier stage of the same lead on the social platform), by key */
  after?: { pk: string; sk: string };
  /** the delivery waiting on this one, queued when this one ends */
  next?: { pk: string; sk: string };
  dueAt?: number;
  /** a run marked it before sending and has not ended it (false, or absent, otherwise) */
  inFlight?: boolean;
  /** its event's row in the user's listing, kept in step with its status */
  listing: { pk: string; sk: string };
  /** the `conversions` job that sends it (an event of /conversions/send); absent for a lead's outcome, which the flow sends */
  jobId?: string;
}

/** Where an event stands on one platform, as get_event and list_events answer it. */
export interface PlatformStanding {
  platform: Platform;
  destinationId: string;
  status: ConversionStatus;
  error?: { code: string; message: string };
}

export interface ListedEvent {
  eventId: string;
  leadId?: string;
  stage: string;
  occurredAt: string;
  platforms: PlatformStanding[];
}

/** The listing's attribute holding an event's status on one platform (what the status filter reads). */
export const statusAttribute = (platform: Platform) => `status_${platform}`;

/** A page of the user's events, newest first, filtered by stage, by a status on any platform, and by creation from `since`. */
export async function listConversionEvents(
  tenantId: string,
  userId: string,
  filter: { stage?: string; status?: ConversionStatus; since?: string },
  limit: number,
  pagination?: string,
): Promise<{ events: ListedEvent[]; next?: string }> {
  const before = pagination ? decodeCursor(pagination, /^\d{4}-\d{2}-\d{2}T[^#]+#[A-Za-z0-9_.:-]{1,64}$/) : undefined;
  const conditions = ['pk = :pk'];
  const values: Record<string, unknown> = { ':pk': keys.conversionsPk(tenantId, userId) };
  if (filter.since && before) {
    conditions.push('sk BETWEEN :since AND :before');
    Object.assign(values, { ':since': filter.since, ':before': before });
  } else if (filter.since) {
    conditions.push('sk >= :since');
    values[':since'] = filter.since;
  } else if (before) {
    conditions.push('sk < :before');
    values[':before'] = before;
  }
  const filters: string[] = [];
  const names: Record<string, string> = {};
  if (filter.stage) {
    filters.push('#stage = :stage');
    names['#stage'] = 'stage';
    values[':stage'] = filter.stage;
  }
  if (filter.status) {
    filters.push(`(${PLATFORMS.map((platform) => `#${platform} = :status`).join(' OR ')})`);
    for (const platform of PLATFORMS) names[`#${platform}`] = statusAttribute(platform);
    values[':status'] = filter.status;
  }
  const { items, next } = await newestFirstPage(
    {
      TableName: mainTableName(),
      KeyConditionExpression: conditions.join(' AND '),
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ConsistentRead: true,
    },
    limit,
  );
  return {
    events: items.map((item) => ({
      eventId: String(item.eventId),
      ...(item.leadId ? { leadId: String(item.leadId) } : {}),
      stage: String(item.stage),
      occurredAt: String(item.occurredAt),
      platforms: Object.values((item.platforms ?? {}) as Record<string, PlatformStanding>),
    })),
    ...(next ? { next } : {}),
  };
}

export interface LeadOutcome {
  outcomeId: string;
  eventIds: string[];
  stage: string;
}

export async function findLeadOutcome(tenantId: string, platform: 'social' | 'professional', leadId: string, stage: string): Promise<LeadOutcome | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.leadOutcome(tenantId, platform, leadId, stage), ConsistentRead: true }),
  );
  return Item ? { outcomeId: String(Item.outcomeId), eventIds: Item.eventIds as string[], stage: String(Item.stage) } : undefined;
}

export async function findConversionDelivery(key: { pk: string; sk: string }): Promise<ConversionDelivery | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
  return Item as ConversionDelivery | undefined;
}

/** An event of the tenant with every delivery of it, from one query; undefined when the tenant has none by that id. */
export async function findConversionEvent(
  tenantId: string,
  eventId: string,
): Promise<{ event: ConversionEvent; deliveries: ConversionDelivery[] } | undefined> {
  const { Items = [] } = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.conversionPk(tenantId, eventId) },
      ConsistentRead: true,
    }),
  );
  const event = Items.find((item) => item.sk === keys.conversionEvent);
  if (!event) return undefined;
  return {
    event: event as unknown as ConversionEvent,
    deliveries: Items.filter((item) => String(item.sk).startsWith(keys.conversionDeliveryPrefix)) as unknown as ConversionDelivery[],
  };
}

const BATCH_GET_KEYS = 100;

/** Deliveries by key, read consistently in reads of at most 100 keys; a key with no item is absent from the map. */
export async function findConversionDeliveries(wanted: ReadonlyArray<{ pk: string; sk: string }>): Promise<Map<string, ConversionDelivery>> {
  const found = new Map<string, ConversionDelivery>();
  for (let from = 0; from < wanted.length; from += BATCH_GET_KEYS) {
    let pending: Array<Record<string, unknown>> = wanted.slice(from, from + BATCH_GET_KEYS).map(({ pk, sk }) => ({ pk, sk }));
    for (let round = 0; pending.length > 0; round++) {
      if (round === 5) throw new Error('the store left part of a read undone five times');
      const { Responses, UnprocessedKeys } = await documentStore().send(
        new BatchGetCommand({ RequestItems: { [mainTableName()]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[mainTableName()] ?? []) found.set(`${item.pk}\u0000${item.sk}`, item as ConversionDelivery);
      pending = UnprocessedKeys?.[mainTableName()]?.Keys ?? [];
    }
  }
  return found;
}

export const deliveryKey = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;
