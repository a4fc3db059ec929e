import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { Proposal, ProposalStatus } from '../schemas/proposals.ts';
import type { RuleDefinition } from '../schemas/rules.ts';
import { documentStore, mainTableName } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * A user's proposals (docs/rules.md, "Rules that ask first"):
 *   TENANT#<t>#USER#<u>#PROPOSALS / PROPOSAL#<proposalId>            one proposal (its id begins with its run's time)
 *   TENANT#<t>#USER#<u>#PROPOSALS / PENDING#<ruleId>#<campaignId>    the (rule, campaign)'s pending proposal
 * The pending marker is made with its proposal, only when there is none or the one it names expired, so a
 * rule never has two pending proposals for one campaign. A stored `pending` past its expiry is shown
 * `expired` (and stored so when it is decided). Proposals are kept 90 days.
 */
export const KEEP_SECONDS = 90 * 86_400;

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

export const itemKey = (tenantId: string, userId: string, proposalId: string) => ({ pk: keys.proposalsPk(tenantId, userId), sk: keys.proposal(proposalId) });

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
