import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditToStore } from '../core/audit.ts';
import { clock } from '../core/clock.ts';
import { writeAuditedIfConditionHolds } from './audit-event-writes.ts';
import { documentStore, failedTransactionConditions, mainTableName, queryItems, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';
import { itemKey, KEEP_SECONDS, type StoredProposal } from './proposals.ts';
import type { WebhookEvent } from './webhook-events.ts';
import { webhookEventPut } from './webhook-event-writes.ts';

/** Writing proposals (proposals.ts reads them and draws the layout). */
/**
 * Stores a proposal with its pending marker and its `optimization.proposed` event, in one transaction:
 * 'created'; 'exists' when this very proposal is stored already (a run delivered again); 'pending'
 * when another proposal of the rule for the campaign waits for a decision (nothing stored).
 */
export async function storeProposal(tenantId: string, proposal: StoredProposal, event: WebhookEvent | undefined): Promise<'created' | 'exists' | 'pending'> {
  const now = clock.now();
  const pk = keys.proposalsPk(tenantId, proposal.userId);
  const expiresAt = Math.floor(now / 1000) + KEEP_SECONDS;
  const writes = [
    {
      Put: {
        TableName: mainTableName(),
        Item: { pk, sk: keys.proposal(proposal.proposalId), ...proposal, expiresAt },
        ConditionExpression: 'attribute_not_exists(sk)',
      },
    },
    {
      Put: {
        TableName: mainTableName(),
        Item: {
          pk,
          sk: keys.proposalPending(proposal.ruleId, proposal.campaignId),
          proposalId: proposal.proposalId,
          expiresAtMs: proposal.expiresAtMs,
          expiresAt,
        },
        // the one before it is decided, or it expired (its marker stays until a decision or the next proposal)
        ConditionExpression: 'attribute_not_exists(sk) OR expiresAtMs <= :now',
        ExpressionAttributeValues: { ':now': now },
      },
    },
    ...(event ? [{ Put: webhookEventPut(event).input }] : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes as never }));
    return 'created';
  } catch (error) {
    const failed = failedTransactionConditions(error);
    if (failed?.includes(0)) return 'exists';
    if (failed?.includes(1)) return 'pending';
    throw error;
  }
}

/**
 * Moves a proposal from one state to the next, only if it is still in `from` (and, from pending, not
 * expired): false when it is not. `set` adds the fields the move records.
 */
export function moveProposal(
  tenantId: string,
  userId: string,
  proposalId: string,
  from: StoredProposal['state'],
  to: StoredProposal['state'],
  set: Partial<Pick<StoredProposal, 'decidedAt' | 'finishedAt' | 'error'>> = {},
  audit?: AuditToStore,
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':from': from, ':to': to };
  const sets = ['#state = :to'];
  for (const [field, value] of Object.entries(set)) {
    sets.push(`#${field} = :${field}`);
    names[`#${field}`] = field;
    values[`:${field}`] = value;
  }
  let condition = '#state = :from';
  if (from === 'pending' && to !== 'expired') {
    condition += ' AND expiresAtMs > :now';
    values[':now'] = clock.now();
  }
  return writeAuditedIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: itemKey(tenantId, userId, proposalId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
    audit,
  );
}

/** A decided proposal lets its (rule, campaign) have a new one: its marker goes, unless it already names a newer proposal. */
export async function releasePending(tenantId: string, proposal: Pick<StoredProposal, 'userId' | 'ruleId' | 'campaignId' | 'proposalId'>): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({
      TableName: mainTableName(),
      Key: { pk: keys.proposalsPk(tenantId, proposal.userId), sk: keys.proposalPending(proposal.ruleId, proposal.campaignId) },
      ConditionExpression: 'proposalId = :id',
      ExpressionAttributeValues: { ':id': proposal.proposalId },
    }),
  );
}

/**
 * The approvals under way, so that one whose process died is finished by the scheduler's sweep
 * (docs/rules.md, "Rules that ask first"): one item per approved proposal, written before the approval
 * and removed once the proposal is applied or failed, in one of a few partitions (never one hot key).
 *   PROPOSALS#APPROVED#<shard> / <approved at, ms>#<tenant>#<user>#<proposalId>
 */
export interface ApprovalUnderWay {
  tenantId: string;
  userId: string;
  proposalId: string;
}

const APPROVAL_SHARDS = 4;
const shardOf = (proposalId: string) => (createHash('sha256').update(proposalId).digest()[0] ?? 0) % APPROVAL_SHARDS;
const approvalKey = (decidedAtMs: number, { tenantId, userId, proposalId }: ApprovalUnderWay) => ({
  pk: keys.approvalsPk(shardOf(proposalId)),
  sk: keys.approval(decidedAtMs, tenantId, userId, proposalId),
});

export async function noteApproval(decidedAtMs: number, approval: ApprovalUnderWay): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...approvalKey(decidedAtMs, approval), ...approval } }));
}

export async function forgetApproval(decidedAtMs: number, approval: ApprovalUnderWay): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: approvalKey(decidedAtMs, approval) }));
}

/** The approvals noted before `before` (epoch ms) and not yet forgotten: each shard a query. */
export async function* approvalsBefore(before: number): AsyncGenerator<ApprovalUnderWay & { decidedAtMs: number }> {
  for (let shard = 0; shard < APPROVAL_SHARDS; shard++) {
    for await (const item of queryItems({
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': keys.approvalsPk(shard), ':before': keys.approvalsBefore(before) },
    }))
      yield {
        tenantId: String(item.tenantId),
        userId: String(item.userId),
        proposalId: String(item.proposalId),
        decidedAtMs: Number(String(item.sk).slice(0, 13)),
      };
  }
}
