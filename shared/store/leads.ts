import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import type { NormalizedLead } from '../schemas/leads.ts';
import { documentStore, failedCondition, mainTableName } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';
import { open, seal } from './sealing.ts';
import type { WebhookEvent } from './webhook-events.ts';
import { webhookEventPuts } from './webhook-event-writes.ts';

/**
 * Leads (docs/leads.md): stored once per (tenant, platform, lead), sealed (every value of a person is
 * AES-GCM at rest, bound to its tenant and lead), kept LEADS_RETENTION_DAYS. Two items a lead:
 *   TENANT#<t>#LEAD#<platform>#<leadId> / LEAD       the marker: unique, names the user whose row it is
 *   TENANT#<t>#USER#<u>#LEADS / <createdAt>#<platform>#<leadId>   the row, sorted by submission
 * The row carries what a listing filters on (platform, form, campaign) in clear: ids, never a value.
 */
type Platform = NormalizedLead['platform'];
const owner = (tenantId: string, platform: Platform, leadId: string) => `lead:${tenantId}:${platform}:${leadId}`;

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
 * The lead stored, with its `lead.received` event and that event's pending marker in the same
 * transaction: a crash after it loses nothing (the event's sweep delivers it), one before it stored
 * nothing (the body or the sweep reads it again). False when the tenant had it already: nothing written.
 */
export async function storeLead(tenantId: string, userId: string, lead: NormalizedLead, event: WebhookEvent | undefined): Promise<boolean> {
  const now = clock.now();
  const expiresAt = Math.floor(now / 1000) + config().LEADS_RETENTION_DAYS * 86_400;
  const sk = keys.leadRow(lead.createdAt, lead.platform, lead.leadId);
  const marker = { ...keys.leadMarker(tenantId, lead.platform, lead.leadId), userId, rowSk: sk, expiresAt };
  const row = {
    pk: keys.leadsPk(tenantId, userId),
    sk,
    platform: lead.platform,
    leadId: lead.leadId,
    formId: lead.formId,
    ...(lead.campaignId ? { campaignId: lead.campaignId } : {}),
    createdAt: lead.createdAt,
    receivedAt: new Date(now).toISOString(),
    sealed: seal(JSON.stringify(lead), owner(tenantId, lead.platform, lead.leadId)),
    expiresAt,
  };
  const writes = [
    { Put: { TableName: mainTableName(), Item: marker, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: mainTableName(), Item: row } },
    ...(event ? webhookEventPuts(event, now + config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000).map((put) => ({ Put: put.input })) : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes as never }));
    return true;
  } catch (error) {
    const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
    if ((error as Error).name === 'TransactionCanceledException' && reasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    if (failedCondition(error) !== undefined) return false;
    throw error;
  }
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
  const found: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: conditions.join(' AND '),
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: limit + 1,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (found.length <= limit && start);
  const shown = found.slice(0, limit);
  const leads = shown.map((item) => ({
    receivedAt: String(item.receivedAt),
    lead: JSON.parse(open(String(item.sealed), owner(tenantId, item.platform as Platform, String(item.leadId)))) as NormalizedLead,
  }));
  const last = shown.at(-1);
  return { leads, ...(found.length > limit && last ? { next: encodeCursor(String(last.sk)) } : {}) };
}

/** The lead removed for good (its marker too, so a later webhook of it would store it again only if the platform still had it). False: not this user's. */
export async function eraseLead(tenantId: string, userId: string, platform: Platform, leadId: string): Promise<boolean> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.leadMarker(tenantId, platform, leadId), ConsistentRead: true }),
  );
  if (!Item || Item.userId !== userId) return false;
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
