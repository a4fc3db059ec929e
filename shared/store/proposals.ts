import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { Proposal, ProposalStatus } from '../schemas/proposals.ts';
import type { RuleDefinition } from '../schemas/rules.ts';
import type { WebhookEvent } from './webhook-events.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';
import { webhookEventPuts } from './webhook-event-writes.ts';
import { config } from '../core/config.ts';
import type { AuditToStore } from '../core/audit.ts';
import { writeAuditedIfConditionHolds } from './audit-event-writes.ts';

/**
 * A user's proposals (docs/rules.md, "Rules that ask first"):
 *   TENANT#<t>#USER#<u>#PROPOSALS / PROPOSAL#<proposalId>            one proposal (its id begins with its run's time)
 *   TENANT#<t>#USER#<u>#PROPOSALS / PENDING#<ruleId>#<campaignId>    the (rule, campaign)'s pending proposal
 * The pending marker is made with its proposal, only when there is none or the one it names expired, so a
 * rule never has two pending proposals for one campaign. A stored `pending` past its expiry is shown
 * `expired` (and stored so when it is decided). Proposals are kept 90 days.
 */
const KEEP_SECONDS = 90 * 86_400;

export interface StoredProposal extends Omit<Proposal, 'status' | 'expiresAt'> {
  /** as stored: a pending one past its expiry is shown expired */
  state: ProposalStatus;
  expiresAtMs: number;
  /** the change as the control code takes it */
  change: { field: 'status' | 'dailyBudget'; from: string; to: string };
  /** what of the rule the approval checks again: its action and cooldown as they were when it proposed */
  rule: Pick<RuleDefinition, 'action' | 'cooldownHours'>;
}

export const proposalOf = (stored: StoredProposal, now = clock.now()): Proposal => {
  const { state, expiresAtMs, change: _change, rule: _rule, ...shown } = stored;
  const status = state === 'pending' && now >= expiresAtMs ? 'expired' : state;
  return { ...shown, status, expiresAt: new Date(expiresAtMs).toISOString() };
};

const itemKey = (tenantId: string, userId: string, proposalId: string) => ({ pk: keys.proposalsPk(tenantId, userId), sk: keys.proposal(proposalId) });

export async function findProposal(tenantId: string, userId: string, proposalId: string): Promise<StoredProposal | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: itemKey(tenantId, userId, proposalId), ConsistentRead: true }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _ttl, ...stored } = Item;
  return stored as StoredProposal;
}

/** The proposal a (rule, campaign)'s pending marker names, and when it expires. */
export async function pendingProposal(
  tenantId: string,
  userId: string,
  ruleId: string,
  campaignId: string,
): Promise<{ proposalId: string; expiresAtMs: number } | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({
      TableName: mainTableName(),
      Key: { pk: keys.proposalsPk(tenantId, userId), sk: keys.proposalPending(ruleId, campaignId) },
      ConsistentRead: true,
    }),
  );
  return Item ? { proposalId: String(Item.proposalId), expiresAtMs: Number(Item.expiresAtMs) } : undefined;
}

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
    ...(event ? webhookEventPuts(event, now + config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000).map((put) => ({ Put: put.input })) : []),
  ];
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: writes as never }));
    return 'created';
  } catch (error) {
    const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'exists';
    if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'pending';
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

/** The filter of a status as it is shown: a stored pending one past its expiry is expired. */
function statusFilter(status: ProposalStatus, now: number): { expression: string; values: Record<string, unknown> } {
  if (status === 'pending') return { expression: '#state = :pending AND expiresAtMs > :now', values: { ':pending': 'pending', ':now': now } };
  if (status === 'expired')
    return {
      expression: '(#state = :expired OR (#state = :pending AND expiresAtMs <= :now))',
      values: { ':expired': 'expired', ':pending': 'pending', ':now': now },
    };
  return { expression: '#state = :status', values: { ':status': status } };
}

/** A page of a user's proposals, newest first. */
export async function listProposals(
  tenantId: string,
  userId: string,
  filter: { status?: ProposalStatus; ruleId?: string },
  limit: number,
  pagination?: string,
): Promise<{ proposals: Proposal[]; next?: string }> {
  const now = clock.now();
  const before = pagination ? decodeCursor(pagination, /^PROPOSAL#prp_\d{13}_[0-9a-f]{12}$/) : `${keys.proposalPrefix}~`;
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': keys.proposalsPk(tenantId, userId), ':from': keys.proposalPrefix, ':before': before };
  if (filter.status) {
    const { expression, values: more } = statusFilter(filter.status, now);
    filters.push(expression);
    names['#state'] = 'state';
    Object.assign(values, more);
  }
  if (filter.ruleId) {
    filters.push('ruleId = :ruleId');
    values[':ruleId'] = filter.ruleId;
  }
  const found: StoredProposal[] = [];
  const sks: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :before',
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: limit + 1,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.sk === before) continue; // the cursor's own item (BETWEEN includes it)
      const { pk: _pk, sk, expiresAt: _ttl, ...stored } = item;
      found.push(stored as StoredProposal);
      sks.push(String(sk));
    }
    start = page.LastEvaluatedKey;
  } while (found.length <= limit && start);
  const shown = found.slice(0, limit);
  const last = sks[shown.length - 1];
  return { proposals: shown.map((stored) => proposalOf(stored, now)), ...(found.length > limit && last ? { next: encodeCursor(last) } : {}) };
}
