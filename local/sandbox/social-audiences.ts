import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { graphError, unknownObject, usageHeaders, withHeaders, type GraphHandler, parseParam } from './social-graph.ts';

/** The social sandbox's customer-file audiences: creation, `users`/`usersreplace` sessions, and their journal across restarts. */

export const AUDIENCE_KEYS = new Set([
  'EXTERN_ID',
  'EMAIL',
  'PHONE',
  'GEN',
  'DOBY',
  'DOBM',
  'DOBD',
  'LN',
  'FN',
  'FI',
  'CT',
  'ST',
  'ZIP',
  'MADID',
  'COUNTRY',
  'EMAIL_SHA256',
  'PHONE_SHA256',
  'MOBILE_ADVERTISER_ID',
]);
export const UNHASHED_KEYS = new Set(['EXTERN_ID', 'MADID', 'MOBILE_ADVERTISER_ID']);
export const MAX_AUDIENCE_ROWS = 10_000;

export interface UploadSessionState {
  received: number;
  invalid: number;
  lastBatchSeen: boolean;
  replace: boolean;
}

/** One batch the audience received: its flags, its rows, and the valid members it brought. */
export interface AudienceBatch {
  edge: string;
  method: string;
  session: Record<string, unknown>;
  rows: number;
  /** valid rows (members added, or removed for DELETE) */
  members: number;
  /** an order-free fingerprint of those members (memberDigest): a batch sent again has the same one */
  digest: string;
  /** the same session and batch_seq arrived before: its members were not counted again */
  repeated?: boolean;
}

/**
 * An audience as the sandbox keeps it: bounded whatever the list's size. It counts its members rather
 * than holding them (the platform matches and dedupes people; the sandbox counts valid rows, a batch
 * sent again in its session once) and keeps only the newest few for a look.
 */
export interface CustomAudience {
  id: string;
  accountId: string;
  name: string;
  subtype: string;
  memberCount: number;
  /** the newest members, at most RECENT_MEMBERS */
  recentMembers: string[];
  sessions: Map<string, UploadSessionState>;
  /** every batch the audience received (a few hundred bytes each, whatever its rows) */
  batches: AudienceBatch[];
}

export const RECENT_MEMBERS = 10;
export const DIGEST_MODULUS = 1n << 64n;

/** The digest of the members of every batch counted (a batch sent again is left out): the audience's members as they arrived. */
export function countedDigest(audience: Pick<CustomAudience, 'batches'>): string {
  return audience.batches
    .filter((batch) => !batch.repeated && batch.method !== 'DELETE')
    .reduce((sum, batch) => (sum + BigInt(`0x${batch.digest}`)) % DIGEST_MODULUS, 0n)
    .toString(16);
}

/** Sum, modulo 2^64, of the first 64 bits of each member's SHA-256: the same members give the same digest in any order. */
export function memberDigest(members: Iterable<string>, start = 0n): string {
  let sum = start;
  for (const member of members) sum = (sum + BigInt(`0x${createHash('sha256').update(member).digest('hex').slice(0, 16)}`)) % DIGEST_MODULUS;
  return sum.toString(16);
}

export const createCustomAudience: GraphHandler<AudienceState> = (call, state, { account }) => {
  if (!state.images.has(account as string)) return unknownObject('POST', `act_${account}`);
  const { name, subtype, customer_file_source: source } = call.params;
  if (!name || typeof name !== 'string') return graphError(100, '(#100) The parameter name is required');
  if (subtype !== undefined && subtype !== 'CUSTOM')
    return graphError(100, '(#100) Only customer-file audiences (subtype CUSTOM) are supported by this sandbox');
  if (source !== undefined && !['USER_PROVIDED_ONLY', 'PARTNER_PROVIDED_ONLY', 'BOTH_USER_AND_PARTNER_PROVIDED'].includes(String(source))) {
    return graphError(100, '(#100) Param customer_file_source must be one of {USER_PROVIDED_ONLY, PARTNER_PROVIDED_ONLY, BOTH_USER_AND_PARTNER_PROVIDED}');
  }
  const id = `1202105550000${String(10000 + state.audiences.size)}`;
  state.audiences.set(id, { id, accountId: account as string, name, subtype: 'CUSTOM', memberCount: 0, recentMembers: [], sessions: new Map(), batches: [] });
  return withHeaders({ status: 200, body: { id } }, usageHeaders(account));
};

/** The part of the sandbox's state the audience routes use: the accounts (their image libraries name them) and the audiences. */
type AudienceState = { images: Map<string, unknown>; audiences: Map<string, CustomAudience> };

export const audienceError = (subcode: number, message: string) =>
  graphError(2650, `(#2650) ${message}`, { error_subcode: subcode, error_user_title: 'Audience update failed', error_user_msg: message });

/** `POST|DELETE /{audience}/users` and `POST /{audience}/usersreplace`: sessions, limits and the platform's invalid-entry check. */
export function audienceUsers(edge: 'users' | 'usersreplace', method: 'POST' | 'DELETE'): GraphHandler<AudienceState> {
  return (call, state, { node }) => {
    const audience = state.audiences.get(node as string);
    if (!audience) return unknownObject(method, node as string);
    const payload = parseParam(call.params.payload) as { schema?: unknown; data?: unknown; is_raw?: unknown } | undefined;
    if (!payload || typeof payload !== 'object') return graphError(100, '(#100) The parameter payload is required');
    const schema = typeof payload.schema === 'string' ? [payload.schema] : payload.schema;
    if (!Array.isArray(schema) || schema.length === 0) return graphError(100, '(#100) payload.schema must be a key or a list of keys');
    const unknownKey = schema.find((key) => !AUDIENCE_KEYS.has(String(key)));
    if (unknownKey !== undefined) return graphError(100, `(#100) Invalid schema key: ${String(unknownKey)}`);
    if (!Array.isArray(payload.data)) return graphError(100, '(#100) payload.data must be a list');
    const rows = (payload.data as unknown[]).map((row) => (Array.isArray(row) ? row : [row]));
    if (rows.length > MAX_AUDIENCE_ROWS) return graphError(100, `(#100) A request may hold at most ${MAX_AUDIENCE_ROWS} rows; it held ${rows.length}`);
    const badWidth = rows.findIndex((row) => row.length !== schema.length);
    if (badWidth >= 0) return graphError(100, `(#100) Row ${badWidth} has ${rows[badWidth]?.length} values for ${schema.length} schema keys`);

    const session = parseParam(call.params.session) as Record<string, unknown> | undefined;
    if (edge === 'usersreplace' && !session) return graphError(100, '(#100) The parameter session is required');
    const sessionId = session ? String(session.session_id ?? '') : `implicit-${audience.batches.length}`;
    if (session && !/^[1-9]\d*$/.test(sessionId)) return graphError(100, '(#100) session.session_id must be a positive integer');
    let upload = audience.sessions.get(sessionId);
    const batchSeq = Number(session?.batch_seq ?? 1);
    if (upload?.lastBatchSeen) return audienceError(1870159, 'This upload session has already finished; start a new session.');
    if (edge === 'usersreplace') {
      if (!upload && batchSeq !== 1) return audienceError(1870147, 'The first batch of a replace session (batch_seq 1) was not received.');
      if (upload && batchSeq === 1) return audienceError(1870144, 'A replace session may start only once.');
    }
    if (!upload) {
      upload = { received: 0, invalid: 0, lastBatchSeen: false, replace: edge === 'usersreplace' };
      audience.sessions.set(sessionId, upload);
      if (edge === 'usersreplace') audience.memberCount = 0;
    }
    const repeated =
      session !== undefined &&
      audience.batches.some((seen) => String(seen.session.session_id) === sessionId && Number(seen.session.batch_seq ?? 1) === batchSeq);
    const valid: string[] = [];

    const samples: Record<string, string> = {};
    let invalid = 0;
    for (const row of rows) {
      const badIndex = row.findIndex((cell, index) => {
        const text = String(cell ?? '');
        if (text === '') return false;
        const key = String(schema[index]);
        if (key === 'MADID' || key === 'MOBILE_ADVERTISER_ID') return !/^[0-9a-f-]{10,64}$/.test(text);
        if (UNHASHED_KEYS.has(key)) return false;
        return !/^[0-9a-f]{64}$/.test(text);
      });
      if (badIndex >= 0 || row.every((cell) => String(cell ?? '') === '')) {
        invalid++;
        if (Object.keys(samples).length < 100) samples[String(row[Math.max(0, badIndex)])] = String(schema[Math.max(0, badIndex)]);
        continue;
      }
      valid.push(JSON.stringify(row));
    }
    audience.batches.push({
      edge,
      method,
      session: session ?? {},
      rows: rows.length,
      members: valid.length,
      digest: memberDigest(valid),
      ...(repeated ? { repeated } : {}),
    });
    if (!repeated) {
      audience.memberCount = Math.max(0, audience.memberCount + (method === 'DELETE' ? -valid.length : valid.length));
      if (method !== 'DELETE') audience.recentMembers = [...audience.recentMembers, ...valid.slice(-RECENT_MEMBERS)].slice(-RECENT_MEMBERS);
    }
    upload.received += rows.length;
    upload.invalid += invalid;
    if (session?.last_batch_flag === true || session?.last_batch_flag === 'true') upload.lastBatchSeen = true;
    return withHeaders(
      {
        status: 200,
        body: {
          audience_id: audience.id,
          session_id: sessionId,
          num_received: upload.received,
          num_invalid_entries: upload.invalid,
          invalid_entry_samples: samples,
        },
      },
      usageHeaders(audience.accountId),
    );
  };
}

export type JournaledAudience = CustomAudience & { journaledBatches?: number };
export interface JournalLine {
  id: string;
  accountId: string;
  name: string;
  subtype: string;
  sessions: Array<[string, UploadSessionState]>;
  batches: AudienceBatch[];
  memberCount?: number;
  recentMembers?: string[];
  /** journals written before counts: every member's change */
  changes?: Array<['a' | 'd', string] | ['c']>;
}

/**
 * The audiences, kept across restarts of the local stack (the platform would not forget them): an
 * append-only journal, one line per audience a call changed, with its counts and its new batches, so a
 * batch costs a few hundred bytes to keep, whatever its rows.
 */
export function journalAudiences(file: string, audiences: Map<string, CustomAudience>): void {
  let lines = '';
  for (const audience of audiences.values() as Iterable<JournaledAudience>) {
    if (audience.journaledBatches === audience.batches.length) continue;
    const line: JournalLine = {
      id: audience.id,
      accountId: audience.accountId,
      name: audience.name,
      subtype: audience.subtype,
      sessions: [...audience.sessions],
      batches: audience.batches.slice(audience.journaledBatches ?? 0),
      memberCount: audience.memberCount,
      recentMembers: audience.recentMembers,
    };
    lines += `${JSON.stringify(line)}\n`;
    audience.journaledBatches = audience.batches.length;
  }
  if (lines) appendFileSync(file, lines);
}

/** The audiences a journal holds (also what tests read of the sandbox's platform side). */
export function loadAudiences(file: string): Map<string, CustomAudience> {
  const audiences = new Map<string, CustomAudience>();
  if (!existsSync(file)) return audiences;
  const journal = readFileSync(file, 'utf8');
  // a line still being written (or torn by a kill) is not there yet
  for (const text of journal.slice(0, journal.lastIndexOf('\n') + 1).split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as JournalLine;
    const audience: JournaledAudience = audiences.get(line.id) ?? {
      id: line.id,
      accountId: line.accountId,
      name: line.name,
      subtype: line.subtype,
      memberCount: 0,
      recentMembers: [],
      sessions: new Map(),
      batches: [],
    };
    Object.assign(audience, { name: line.name, sessions: new Map(line.sessions) });
    audience.batches.push(...line.batches);
    if (line.memberCount !== undefined) audience.memberCount = line.memberCount;
    if (line.recentMembers) audience.recentMembers = line.recentMembers;
    for (const [op] of line.changes ?? []) audience.memberCount = op === 'c' ? 0 : Math.max(0, audience.memberCount + (op === 'a' ? 1 : -1));
    audience.journaledBatches = audience.batches.length;
    audiences.set(line.id, audience);
  }
  return audiences;
}
