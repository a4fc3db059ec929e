import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, failedTransactionConditions, mainTableName, writeIfConditionHolds } from './client.ts';
import { type ConversionDelivery, type ConversionEvent, type ConversionStatus, type LeadOutcome, statusAttribute } from './conversions.ts';
import { type FlowItem, flowUpdate } from './flow-items.ts';
import type { AuditDraft } from '../core/audit.ts';
import { auditEventItem } from './audit-event-writes.ts';
import { keys } from './keys.ts';
import { outcomeCountUpdate } from './outcome-counts.ts';
import { webhookEventPut } from './webhook-event-writes.ts';
import type { WebhookEvent } from './webhook-events.ts';

/** The writes of conversions (conversions.ts has the layout and the reads). */

export type OutcomeWrite = 'stored' | 'outcome_exists' | 'event_exists';

/** An event's row in its user's listing: where it stands on each platform it goes to. */
function listingOf(tenantId: string, event: ConversionEvent, deliveries: readonly FlowItem[]): Record<string, unknown> {
  const own = deliveries.filter((delivery) => delivery.eventId === event.eventId) as unknown as ConversionDelivery[];
  return {
    pk: keys.conversionsPk(tenantId, event.userId),
    sk: keys.conversionListing(event.createdAt, event.eventId),
    eventId: event.eventId,
    ...(event.leadId ? { leadId: event.leadId } : {}),
    stage: event.stage,
    occurredAt: event.occurredAt,
    platforms: Object.fromEntries(own.map(({ platform, destinationId, status }) => [platform, { platform, destinationId, status }])),
    ...Object.fromEntries(own.map(({ platform, status }) => [statusAttribute(platform), status])),
  };
}

/** The listing row's update for a delivery's new standing (alone, or an item of a transaction). */
function standingUpdate(
  delivery: Pick<ConversionDelivery, 'listing' | 'platform' | 'destinationId'>,
  status: ConversionStatus,
  error?: { code: string; message: string },
) {
  return {
    TableName: mainTableName(),
    Key: delivery.listing,
    UpdateExpression: 'SET #platforms.#platform = :standing, #status = :status',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#platforms': 'platforms', '#platform': delivery.platform, '#status': statusAttribute(delivery.platform) },
    ExpressionAttributeValues: {
      ':standing': { platform: delivery.platform, destinationId: delivery.destinationId, status, ...(error ? { error } : {}) },
      ':status': status,
    },
  };
}

/**
 * A lead's outcome with the events it adds and their deliveries (flow items), in one transaction, each
 * written only if absent: `outcome_exists` when the (lead, stage) has its outcome already (nothing
 * written), `event_exists` when one of its events was written meanwhile by another outcome of the lead
 * (nothing written; the caller reads again).
 */
export async function storeOutcome(
  tenantId: string,
  lead: { platform: 'social' | 'professional'; leadId: string },
  outcome: LeadOutcome & { createdAt: string },
  events: readonly ConversionEvent[],
  deliveries: readonly FlowItem[],
  /** the lead's campaign, and the outcome's day: reports count outcomes per campaign and day (outcome-counts.ts) */
  counted?: { userId: string; campaignId: string; day: string },
): Promise<OutcomeWrite> {
  const absent = (Item: Record<string, unknown>) => ({ Put: { TableName: mainTableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  const writes = [
    absent({ ...keys.leadOutcome(tenantId, lead.platform, lead.leadId, outcome.stage), ...outcome }),
    ...events.map((event) => absent({ pk: keys.conversionPk(tenantId, event.eventId), sk: keys.conversionEvent, ...event })),
    ...deliveries.map((delivery) => absent(delivery)),
    ...events.map((event) => absent(listingOf(tenantId, event, deliveries))),
    ...(counted ? [{ Update: outcomeCountUpdate(tenantId, counted.userId, lead.platform, counted.day, counted.campaignId, outcome.stage) }] : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes }));
    return 'stored';
  } catch (error) {
    const failed = failedTransactionConditions(error);
    if (failed?.includes(0)) return 'outcome_exists';
    if (failed && failed.length > 0) return 'event_exists';
    throw error;
  }
}

/**
 * An event of /conversions/send with its deliveries and its listing row, in one transaction, written
 * only if the tenant has no event of that id: `exists` (nothing written) when it has, whoever wrote it.
 */
export async function storeSentEvent(
  tenantId: string,
  event: ConversionEvent & { jobId: string },
  deliveries: readonly ConversionDelivery[],
): Promise<'stored' | 'exists'> {
  const absent = (Item: Record<string, unknown>) => ({ Put: { TableName: mainTableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  const items = deliveries as unknown as FlowItem[];
  try {
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [
          absent({ pk: keys.conversionPk(tenantId, event.eventId), sk: keys.conversionEvent, ...event }),
          ...items.map((delivery) => absent(delivery)),
          absent(listingOf(tenantId, event, items)),
        ],
      }),
    );
    return 'stored';
  } catch (error) {
    if (failedTransactionConditions(error)?.length) return 'exists';
    throw error;
  }
}

/**
 * A delivery's end (delivered, rejected, unknown, skipped): it leaves the due index with its status,
 * and the tenant's webhook event of it and the audit event of its request are stored in the same
 * transaction, while the delivery is still queued. False: another run ended it first (nothing written).
 */
export async function settleDelivery(
  delivery: Pick<ConversionDelivery, 'pk' | 'sk' | 'listing' | 'platform' | 'destinationId'>,
  status: Exclude<ConversionStatus, 'queued'>,
  error: { code: string; message: string } | undefined,
  event: WebhookEvent | undefined,
  audit?: AuditDraft,
): Promise<boolean> {
  const update = flowUpdate({ set: { status, ...(error ? { error } : {}) }, due: 'settled', expect: { status: 'queued' } });
  try {
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: mainTableName(), Key: { pk: delivery.pk, sk: delivery.sk }, ...update } },
          { Update: standingUpdate(delivery, status, error) },
          ...(event ? [{ Put: webhookEventPut(event).input }] : []),
          ...(audit ? [{ Put: { TableName: mainTableName(), Item: auditEventItem(audit) } }] : []),
        ],
      }),
    );
    return true;
  } catch (failure) {
    if (failedTransactionConditions(failure)?.includes(0)) return false;
    throw failure;
  }
}

/**
 * A lead's erasure reaches its conversions (docs/conversions.md, "Erasure"): every delivery of an
 * event reported for it loses its payload (the hashes of the person's values), and one still queued
 * ends `rejected` with LEAD_ERASED, never to be sent. A send already in flight when it runs is not
 * called back.
 */
export async function eraseLeadConversions(tenantId: string, platform: 'social' | 'professional', leadId: string): Promise<void> {
  const outcomes = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :outcome)',
      ExpressionAttributeValues: { ':pk': keys.leadMarker(tenantId, platform, leadId).pk, ':outcome': 'OUTCOME#' },
      ConsistentRead: true,
    }),
  );
  const eventIds = new Set((outcomes.Items ?? []).flatMap((outcome) => outcome.eventIds as string[]));
  for (const eventId of eventIds) {
    const { Items = [] } = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :to)',
        ExpressionAttributeValues: { ':pk': keys.conversionPk(tenantId, eventId), ':to': keys.conversionDeliveryPrefix },
        ConsistentRead: true,
      }),
    );
    for (const delivery of Items) {
      const key = { pk: String(delivery.pk), sk: String(delivery.sk) };
      const ended =
        delivery.status === 'queued' &&
        (await writeIfConditionHolds(
          new UpdateCommand({
            TableName: mainTableName(),
            Key: key,
            ...withPayloadRemoved(
              flowUpdate({
                set: { status: 'rejected', error: LEAD_ERASED },
                due: 'settled',
                expect: { status: 'queued' },
              }),
            ),
          }),
        ));
      if (ended) await documentStore().send(new UpdateCommand(standingUpdate(delivery as unknown as ConversionDelivery, 'rejected', LEAD_ERASED)));
      else
        await documentStore().send(
          new UpdateCommand({ TableName: mainTableName(), Key: key, UpdateExpression: 'REMOVE #payload', ExpressionAttributeNames: { '#payload': 'payload' } }),
        );
    }
  }
}

const LEAD_ERASED = { code: 'LEAD_ERASED', message: 'The lead was erased before its conversion was sent.' };

const withPayloadRemoved = (update: ReturnType<typeof flowUpdate>) => ({
  ...update,
  UpdateExpression: update.UpdateExpression.replace('REMOVE ', 'REMOVE #payload, '),
  ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#payload': 'payload' },
});
