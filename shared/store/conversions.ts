import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Conversions (docs/conversions.md): an event and its delivery to each destination in one partition,
 *   TENANT#<t>#CONVERSION#<eventId> / EVENT                               what happened (no person's data)
 *   TENANT#<t>#CONVERSION#<eventId> / TO#<platform>#<destinationId>       its delivery: an item of the `conversions` flow
 * and a lead's reported outcome per stage beside the lead's marker,
 *   TENANT#<t>#LEAD#<platform>#<leadId> / OUTCOME#<stage>                 once per (lead, stage)
 * A delivery holds the event as the platform receives it, with hashes only. Reads are here; writes in
 * conversion-writes.ts.
 */
export const CONVERSION_STATUSES = ['queued', 'delivered', 'rejected', 'unknown', 'skipped_expired', 'skipped_consent', 'skipped_no_identifier'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

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
