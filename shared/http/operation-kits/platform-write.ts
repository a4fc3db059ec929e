import { recordAuditEvent } from '../../store/audit-event-writes.ts';
import { idempotent } from '../idempotency.ts';
import { PLATFORM_READ } from './platform-read.ts';

/** An operation that writes to a platform for a user: as a read, and its audit event recorded. */
export const PLATFORM_WRITE = { ...PLATFORM_READ, recorder: recordAuditEvent } as const;

/** A platform write that creates, so an `Idempotency-Key` replays its first answer. */
export const IDEMPOTENT_PLATFORM_WRITE = { ...PLATFORM_WRITE, idempotency: idempotent() } as const;
