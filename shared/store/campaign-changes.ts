import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { clock } from '../core/clock.ts';
import { Conflict, type Platform } from '../core/errors.ts';
import type { HistoryChange, HistorySource } from '../schemas/optimization.ts';
import { mainTableName, queryItems, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * What happened to a platform campaign, whoever in the tenant did it (docs/decisions.md, "Guardrails
 * by time, per campaign"):
 *   TENANT#<t>#CAMPAIGN#<platform>#<campaignId> / CHANGE#<at ms, 13 digits>#<id>   one applied change
 *   TENANT#<t>#CAMPAIGN#<platform>#<campaignId> / LEASE                           who controls it now
 * A change is written in the transaction of its history entry, so the guardrails' lookback over the
 * cooldown and the account day is one query of one partition, shared by every user of the tenant, and
 * no optimization record a client appends can push a change out of sight. Changes are kept 31 days
 * (the longest cooldown is 30).
 */
const KEEP_SECONDS = 31 * 24 * 60 * 60;

export interface CampaignChange {
  at: number;
  change: HistoryChange;
  source: HistorySource;
  userId: string;
}

/** The put that stores one applied change; it goes in the transaction of the change's history entry. */
export function campaignChangePut(tenantId: string, platform: Platform, campaignId: string, change: CampaignChange): PutCommand {
  return new PutCommand({
    TableName: mainTableName(),
    Item: {
      ...keys.campaignChange(tenantId, platform, campaignId, change.at, randomBytes(6).toString('hex')),
      ...change,
      expiresAt: Math.floor(change.at / 1000) + KEEP_SECONDS,
    },
  });
}

/** The changes made to the campaign at or after `sinceMs`, newest first: one query. */
export async function campaignChangesSince(tenantId: string, platform: Platform, campaignId: string, sinceMs: number): Promise<CampaignChange[]> {
  const pk = keys.campaignPk(tenantId, platform, campaignId);
  const changes: CampaignChange[] = [];
  for await (const item of queryItems({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': keys.campaignChangeFrom(Math.max(0, sinceMs)), ':to': keys.campaignChangeLast },
    ScanIndexForward: false,
    ConsistentRead: true,
  })) {
    const { at, change, source, userId } = item as unknown as CampaignChange;
    changes.push({ at, change, source, userId });
  }
  return changes;
}

/** How long a lease holds without its holder letting it go (a crashed request's): longer than any control call. */
const LEASE_MS = 30_000;
/** How long a request waits for another one's lease before answering CONFLICT (real time: it waits on another request). */
const LEASE_WAIT_MS = 15_000;
const POLL_MS = 25;

async function takeLease(tenantId: string, platform: Platform, campaignId: string, holder: string): Promise<boolean> {
  const now = clock.now();
  return writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.campaignLease(tenantId, platform, campaignId), holder, leaseUntil: now + LEASE_MS, expiresAt: Math.floor(now / 1000) + 86_400 },
      ConditionExpression: 'attribute_not_exists(pk) OR leaseUntil < :now OR holder = :holder',
      ExpressionAttributeValues: { ':now': now, ':holder': holder },
    }),
  );
}

async function letLeaseGo(tenantId: string, platform: Platform, campaignId: string, holder: string): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({
      TableName: mainTableName(),
      Key: keys.campaignLease(tenantId, platform, campaignId),
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeValues: { ':holder': holder },
    }),
  );
}

/**
 * Runs `work` as the only controller of the campaign in the tenant: read, write and record happen
 * under one lease, so each change's `from` is the value its write replaced. `holder` names the work
 * (a rule's action keeps its name across a crash and takes its own lease back at once); a request's
 * is random. A lease another holder keeps past LEASE_WAIT_MS is a 409 CONFLICT, nothing done.
 */
export async function underCampaignLease<T>(
  scope: { tenantId: string; platform: Platform; campaignId: string; holder?: string },
  work: () => Promise<T>,
): Promise<T> {
  const { tenantId, platform, campaignId } = scope;
  const holder = scope.holder ?? `req_${randomBytes(12).toString('hex')}`;
  const giveUpAt = performance.now() + LEASE_WAIT_MS;
  while (!(await takeLease(tenantId, platform, campaignId, holder))) {
    if (performance.now() >= giveUpAt)
      throw new Conflict(`Campaign ${campaignId} is being changed by another request; nothing of this request was done. Retry it.`);
    await wait(POLL_MS);
  }
  try {
    return await work();
  } finally {
    await letLeaseGo(tenantId, platform, campaignId, holder).catch(() => undefined);
  }
}

/** The update that marks a rule action's change recorded, once: it goes in the transaction of the record. */
export const recordedOnce = (key: { pk: string; sk: string }) =>
  new UpdateCommand({
    TableName: mainTableName(),
    Key: key,
    UpdateExpression: 'SET recorded = :yes',
    ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(recorded)',
    ExpressionAttributeValues: { ':yes': true },
  });

export type RecordedOnceMark = ReturnType<typeof recordedOnce>;
