import { type DeleteCommand, PutCommand, TransactWriteCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AuditDraft, type AuditEvent, type AuditToStore, auditEventOf, auditScope, isPendingAudit } from '../core/audit.ts';
import { documentStore, failedCondition, failedTransactionConditions, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Writing the audit log (audit-events.ts reads it), in the main table (docs/decisions.md, "Audit log"):
 *   TENANT#<t>#AUDIT / EVENT#<occurred ms, 13 digits>#<id>   one event, kept 400 days (TTL)
 * An event of a write to this table is stored in the same transaction as the write; an event of a
 * platform's write after the platform answered.
 */
const KEEP_SECONDS = 400 * 24 * 60 * 60;

function itemOf(tenantId: string, event: AuditEvent): Record<string, unknown> {
  const occurredAt = Date.parse(event.occurredAt);
  return {
    pk: keys.auditPk(tenantId),
    sk: keys.auditEvent(occurredAt, event.id),
    ...event,
    expiresAt: Math.floor(occurredAt / 1000) + KEEP_SECONDS,
  };
}

/** The event as an item of a transaction made elsewhere (in the current audit scope). */
export const auditEventItem = (draft: AuditDraft): Record<string, unknown> => itemOf(draft.tenantId, auditEventOf(draft));

/** Stores the event of a write already made (a platform's), in its scope. */
export async function recordAuditEvent(draft: AuditDraft): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: itemOf(draft.tenantId, auditEventOf(draft)) }));
}

/**
 * Sends a write of this table with its audit event in one transaction (both or neither), or alone
 * when there is no event. A condition of the write that fails answers as it would alone
 * (ConditionalCheckFailedException), so callers handle it the same way.
 */
export async function sendAudited(command: PutCommand | UpdateCommand | DeleteCommand, draft: AuditToStore | AuditToStore[] | undefined): Promise<void> {
  if (!draft || (Array.isArray(draft) && draft.length === 0)) {
    await documentStore().send(command as PutCommand);
    return;
  }
  await sendAuditedTogether([command], draft);
}

type Write = PutCommand | UpdateCommand | DeleteCommand;
const kindOf = (input: Record<string, unknown>) => ('UpdateExpression' in input ? 'Update' : 'Item' in input ? 'Put' : 'Delete');

/**
 * Several writes of this table and their audit event in one transaction: all or none. When a
 * condition fails the error is ConditionalCheckFailedException with `failedWrite`, the index of the
 * first write whose condition failed.
 */
export async function sendAuditedTogether(commands: Write[], audit: AuditToStore | AuditToStore[] | undefined): Promise<void> {
  const scope = auditScope();
  const audits = audit === undefined ? [] : Array.isArray(audit) ? audit : [audit];
  const drafts = audits.map((each) => (isPendingAudit(each) ? each.draft : each));
  const items = commands.map((command) => {
    const { ReturnValues: _ignored, ...write } = command.input as Record<string, unknown>;
    return { [kindOf(write)]: write } as never;
  });
  for (const draft of drafts) items.push({ Put: { TableName: mainTableName(), Item: itemOf(draft.tenantId, auditEventOf(draft, scope)) } } as never);
  try {
    await documentStore().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const [failedWrite] = failedTransactionConditions(error) ?? [];
    if (failedWrite !== undefined) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', failedWrite });
    throw error;
  }
  for (const each of audits) if (isPendingAudit(each)) each.stored();
}

/** writeIfConditionHolds with the write's audit event in its transaction: whether the condition held (nothing written when not). */
export async function writeAuditedIfConditionHolds(
  command: PutCommand | UpdateCommand | DeleteCommand,
  draft: AuditToStore | AuditToStore[] | undefined,
): Promise<boolean> {
  try {
    await sendAudited(command, draft);
    return true;
  } catch (error) {
    if (failedCondition(error) !== undefined) return false;
    throw error;
  }
}
