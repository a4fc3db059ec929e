import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import type { NormalizedLead } from '../schemas/leads.ts';
import { documentStore, failedCondition, failedTransactionConditions, mainTableName } from './client.ts';
import { eraseLeadConversions } from './conversion-writes.ts';
import { keys } from './keys.ts';
import { leadOwner } from './leads.ts';
import { seal } from './sealing.ts';
import type { WebhookEvent } from './webhook-events.ts';
import { eraseWebhookEventData, webhookEventPut } from './webhook-event-writes.ts';

/** The writes of leads (leads.ts has the layout and the reads). */
type Platform = NormalizedLead['platform'];

/**
 * The lead stored, with its `lead.received` event and that event's pending marker in the same
 * transaction: a crash after it loses nothing (the event's sweep delivers it), one before it stored
 * nothing (the body or the sweep reads it again). False when the tenant had it already: nothing written.
 */
export async function storeLead(tenantId: string, userId: string, lead: NormalizedLead, event: WebhookEvent | undefined): Promise<boolean> {
  const now = clock.now();
  const expiresAt = Math.floor(now / 1000) + config().LEADS_RETENTION_DAYS * 86_400;
  const sk = keys.leadRow(lead.createdAt, lead.platform, lead.leadId);
  // the marker names the lead's event, so that an erasure ends its delivery too
  const marker = { ...keys.leadMarker(tenantId, lead.platform, lead.leadId), userId, rowSk: sk, expiresAt, ...(event ? { eventSk: event.sk } : {}) };
  const row = {
    pk: keys.leadsPk(tenantId, userId),
    sk,
    platform: lead.platform,
    leadId: lead.leadId,
    formId: lead.formId,
    ...(lead.campaignId ? { campaignId: lead.campaignId } : {}),
    createdAt: lead.createdAt,
    receivedAt: new Date(now).toISOString(),
    sealed: seal(JSON.stringify(lead), leadOwner(tenantId, lead.platform, lead.leadId)),
    expiresAt,
  };
  const writes = [
    { Put: { TableName: mainTableName(), Item: marker, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: mainTableName(), Item: row } },
    ...(event ? [{ Put: webhookEventPut(event).input }] : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes as never }));
    return true;
  } catch (error) {
    if (failedTransactionConditions(error)?.includes(0) || failedCondition(error) !== undefined) return false;
    throw error;
  }
}

/**
 * The lead removed for good (its marker too, so a later webhook of it would store it again only if the
 * platform still had it), and every copy of its values with it: the `lead.received` event's sealed data,
 * and its delivery if still pending (docs/leads.md, "Personal data"). False: not this user's.
 */
export async function eraseLead(tenantId: string, userId: string, platform: Platform, leadId: string): Promise<boolean> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.leadMarker(tenantId, platform, leadId), ConsistentRead: true }),
  );
  if (!Item || Item.userId !== userId) return false;
  // the event's copy first: a crash before the lead's own removal leaves the marker, so a repeat erases both
  if (typeof Item.eventSk === 'string') await eraseWebhookEventData({ tenantId, sk: Item.eventSk });
  // and the conversions reported for it (their hashes of the person's values)
  await eraseLeadConversions(tenantId, platform, leadId);
  await documentStore().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: mainTableName(), Key: { pk: keys.leadsPk(tenantId, userId), sk: String(Item.rowSk) } } },
        // a tombstone in the marker's place: the same lead seen again (a webhook retry, the sweep) is not stored again
        { Put: { TableName: mainTableName(), Item: { ...keys.leadMarker(tenantId, platform, leadId), erased: true, expiresAt: Item.expiresAt } } },
      ],
    }),
  );
  return true;
}
