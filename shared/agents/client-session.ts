import { randomBytes } from 'node:crypto';
import type { AuditOrigin } from '../core/audit.ts';

/**
 * /mcp keeps no sessions (each request stands alone), yet the audit of an agent's write names the client
 * it said it was at `initialize`. So the answer to `initialize` carries an `Mcp-Session-Id` that holds
 * that name and version (random bytes, then base64url JSON: visible ASCII, as the transport requires),
 * and a client sends it back on every later request. It is what the client declared, no more: the API
 * key says who acts.
 */
type Client = AuditOrigin['client'];

export const UNKNOWN_CLIENT: Client = { name: 'unknown', version: 'unknown' };
const MAX_FIELD_LENGTH = 100;

const printable = (value: unknown) =>
  typeof value === 'string' && value.length > 0 ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_FIELD_LENGTH) : 'unknown';

export function sessionIdOf(client: { name?: unknown; version?: unknown } | undefined): string {
  const declared = { name: printable(client?.name), version: printable(client?.version) };
  return `${randomBytes(12).toString('base64url')}.${Buffer.from(JSON.stringify(declared)).toString('base64url')}`;
}

export function clientOfSession(sessionId: string | undefined): Client {
  const encoded = sessionId?.split('.')[1];
  if (!encoded || sessionId.length > 600) return UNKNOWN_CLIENT;
  try {
    const { name, version } = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { name?: unknown; version?: unknown };
    return { name: printable(name), version: printable(version) };
  } catch {
    return UNKNOWN_CLIENT;
  }
}
