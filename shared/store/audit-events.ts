import type { AuditAction, AuditEvent } from '../core/audit.ts';
import { queryPages } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/** Reading a tenant's audit log (audit-event-writes.ts writes it; the layout is there). */
export const AUDIT_PAGE_SIZE = 100;
/** events one listing call looks at, at most, while its filters pass over them: a sparse filter pages on, never runs long */
const EVALUATED_PER_PAGE = 500;
const MAX_PAGES_READ = 4;

export interface AuditFilters {
  userId?: string;
  action?: AuditAction;
  /** ISO 8601, inclusive */
  since?: string;
  /** ISO 8601, exclusive */
  until?: string;
}

/** A tenant's events, newest first, at most 100 a page; filters by user and action, a time range by the key. */
export async function listAuditEvents(
  tenantId: string,
  filters: AuditFilters,
  pagination: string,
): Promise<{ events: AuditEvent[]; paging: { next?: string } }> {
  const lower = filters.since ? keys.auditEvent(Date.parse(filters.since), '') : 'EVENT#';
  const before = pagination ? decodeCursor(pagination, keys.auditEventShape) : undefined;
  const upperFromUntil = filters.until ? keys.auditEvent(Date.parse(filters.until), '') : 'EVENT$';
  const upper = before && before < upperFromUntil ? before : upperFromUntil;
  const conditions = [filters.userId ? 'userId = :userId' : undefined, filters.action ? '#action = :action' : undefined].filter(Boolean);
  const pages = queryPages({
    // BETWEEN is inclusive at both ends: the upper bound is the first key NOT wanted, dropped below
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
    ExpressionAttributeValues: {
      ':pk': keys.auditPk(tenantId),
      ':lower': lower,
      ':upper': upper,
      ...(filters.userId ? { ':userId': filters.userId } : {}),
      ...(filters.action ? { ':action': filters.action } : {}),
    },
    ...(conditions.length > 0 ? { FilterExpression: conditions.join(' AND ') } : {}),
    ...(filters.action ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
    ScanIndexForward: false,
    Limit: EVALUATED_PER_PAGE,
  });
  const events: AuditEvent[] = [];
  let pagesRead = 0;
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      if (item.sk === upper) continue;
      const { pk: _pk, sk, expiresAt: _ttl, ...event } = item;
      events.push(event as unknown as AuditEvent);
      if (events.length === AUDIT_PAGE_SIZE) return { events, paging: { next: encodeCursor(sk as string) } };
    }
    const next = page.LastEvaluatedKey?.sk as string | undefined;
    if (next && ++pagesRead >= MAX_PAGES_READ) return { events, paging: { next: encodeCursor(next) } };
  }
  return { events, paging: {} };
}
