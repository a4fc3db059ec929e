import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { NormalizedLead } from '../schemas/leads.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { keys } from './keys.ts';

/**
 * Who takes the leads of a Page or an ad account (docs/leads.md): one item per (platform, target,
 * tenant, user) in one partition, so a platform webhook is routed by a query of its target and the
 * sweep walks them all. `sweptUntil` is how far the sweep has read the target's leads for that user.
 *   LEADS#SUBSCRIPTIONS / <platform>#<target>#TENANT#<t>#USER#<u>
 */
type Platform = NormalizedLead['platform'];

export interface LeadSubscription {
  platform: Platform;
  target: string;
  tenantId: string;
  userId: string;
  subscribedAt: number;
  sweptUntil: number;
  /** the first lead read of it was refused by the business's own leads-access settings */
  accessMissing?: true;
}

const key = (platform: Platform, target: string, tenantId: string, userId: string) => ({
  pk: keys.leadSubscriptionsPk,
  sk: keys.leadSubscription(platform, target, tenantId, userId),
});

/** Stored, or kept as it was when it exists (its sweep watermark stays): the subscription as it is now. */
export async function saveLeadSubscription(platform: Platform, target: string, tenantId: string, userId: string): Promise<LeadSubscription> {
  const now = clock.now();
  const { Attributes } = await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: key(platform, target, tenantId, userId),
      UpdateExpression:
        'SET platform = :platform, target = :target, tenantId = :tenant, userId = :user, subscribedAt = if_not_exists(subscribedAt, :now), sweptUntil = if_not_exists(sweptUntil, :now)',
      ExpressionAttributeValues: { ':platform': platform, ':target': target, ':tenant': tenantId, ':user': userId, ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as LeadSubscription;
}

export async function deleteLeadSubscription(platform: Platform, target: string, tenantId: string, userId: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: key(platform, target, tenantId, userId) }));
}

/** Which subscription a sweep's message names. */
export type LeadSubscriptionKey = Pick<LeadSubscription, 'platform' | 'target' | 'tenantId' | 'userId'>;

/** One subscription as it is now (consistent), or undefined when it was removed since. */
export async function findLeadSubscription({ platform, target, tenantId, userId }: LeadSubscriptionKey): Promise<LeadSubscription | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: key(platform, target, tenantId, userId), ConsistentRead: true }),
  );
  return Item as LeadSubscription | undefined;
}

/** Every subscription to a Page or an ad account, of any tenant. */
export async function subscriptionsOf(platform: Platform, target: string): Promise<LeadSubscription[]> {
  const { Items } = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.leadSubscriptionsPk, ':prefix': keys.leadSubscriptionPrefix(platform, target) },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as LeadSubscription[];
}

/** Every subscription, a page at a time (the sweep). */
export async function* allLeadSubscriptions(): AsyncGenerator<LeadSubscription> {
  for await (const item of queryItems({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.leadSubscriptionsPk } }))
    yield item as unknown as LeadSubscription;
}

/** The sweep read the target's leads up to `until` (never moved back). */
export async function noteSwept(subscription: LeadSubscription, until: number): Promise<void> {
  await documentStore()
    .send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: key(subscription.platform, subscription.target, subscription.tenantId, subscription.userId),
        UpdateExpression: 'SET sweptUntil = :until',
        ConditionExpression: 'attribute_exists(pk) AND sweptUntil < :until',
        ExpressionAttributeValues: { ':until': until },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}

export async function noteAccessMissing(subscription: Pick<LeadSubscription, 'platform' | 'target' | 'tenantId' | 'userId'>): Promise<boolean> {
  try {
    await documentStore().send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: key(subscription.platform, subscription.target, subscription.tenantId, subscription.userId),
        UpdateExpression: 'SET accessMissing = :yes',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(accessMissing)',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The subscription's leads are readable again: a later refusal is told again. */
export async function clearAccessMissing(subscription: Pick<LeadSubscription, 'platform' | 'target' | 'tenantId' | 'userId'>): Promise<void> {
  await documentStore()
    .send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: key(subscription.platform, subscription.target, subscription.tenantId, subscription.userId),
        UpdateExpression: 'REMOVE accessMissing',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}
