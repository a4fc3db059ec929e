import { type DeleteCommand, PutCommand, TransactWriteCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AuditDraft, type AuditEvent, auditEventOf, auditScope } from '../core/audit.ts';
import { documentStore, mainTableName } from './client.ts';
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

/** Stores the event of a write already made (a platform's), in its scope. */
export async function recordAuditEvent(draft: AuditDraft): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: itemOf(draft.tenantId, auditEventOf(draft)) }));
}

/**
 * Sends a write of this table with its audit event in one transaction (both or neither), or alone
 * when there is no event. A condition of the write that fails answers as it would alone
 * (ConditionalCheckFailedException), so callers handle it the same way.
 */
export async function sendAudited(command: PutCommand | UpdateCommand | DeleteCommand, draft: AuditDraft | undefined): Promise<void> {
  if (!draft) {
    await documentStore().send(command as PutCommand);
    return;
  }
  const scope = auditScope();
  const input = command.input as Record<string, unknown>;
  const { ReturnValues: _ignored, ...write } = input;
  const kind = 'UpdateExpression' in input ? 'Update' : 'Item' in input ? 'Put' : 'Delete';
  try {
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [{ [kind]: write } as never, { Put: { TableName: mainTableName(), Item: itemOf(draft.tenantId, auditEventOf(draft, scope)) } }],
      }),
    );
  } catch (error) {
    const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
    if ((error as Error).name === 'TransactionCanceledException' && reasons?.[0]?.Code === 'ConditionalCheckFailed') {
      throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    }
    throw error;
  }
  if (scope && draft === scope.declaredDraft) scope.declaredRecorded = true;
}

/** writeIfConditionHolds with the write's audit event in its transaction: whether the condition held (nothing written when not). */
export async function writeAuditedIfConditionHolds(command: PutCommand | UpdateCommand | DeleteCommand, draft: AuditDraft | undefined): Promise<boolean> {
  try {
    await sendAudited(command, draft);
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
