import { randomInt } from 'node:crypto';
import { clock } from '../../core/clock.ts';
import { PlatformRejected } from '../../core/errors.ts';
import type { ContactKey } from './contact-keys.ts';
import type { AudienceMode } from '../../schemas/audiences.ts';
import { graphRequest, JsonBytes, type SocialSession } from './client.ts';

/** docs/platforms.md, "Social": customer-file custom audiences and their upload sessions. */
export type { AudienceMode };
export const MAX_ROWS_PER_BATCH = 10_000;

/** A positive int64 unique within the ad account: milliseconds × 1000 plus a random tail. */
export const newSessionId = () => clock.now() * 1000 + randomInt(1000);

export async function createCustomAudience(session: SocialSession, adAccountId: string, name: string): Promise<string> {
  const { body } = await graphRequest<{ id?: string }>(
    session,
    'POST',
    `act_${adAccountId}/customaudiences`,
    { name, subtype: 'CUSTOM', customer_file_source: 'USER_PROVIDED_ONLY' },
    { retrySafe: false },
  );
  if (!body.id) throw new PlatformRejected('social', 'The platform did not return the new audience’s id.');
  return body.id;
}

/**
 * One batch's rows as the JSON array of `payload.data`, each row written once as it is hashed, into
 * bytes that the next batch reuses: a batch of 10,000 rows is then 3.4 MB held once, where it was as
 * many strings again, its JSON and that JSON's encoded copy.
 */
export class AudienceRows {
  private bytes = Buffer.allocUnsafe(64 * 1024); // doubled as rows need: a short list stays small
  private used = 0;
  count = 0;

  add(values: string[]): void {
    const json = JSON.stringify(values);
    const room = json.length * 3 + 2; // the most UTF-8 bytes it can take, a comma and the closing bracket
    if (this.used + room > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    this.bytes[this.used++] = this.count === 0 ? 0x5b : 0x2c; // [ or ,
    this.used += this.bytes.write(json, this.used);
    this.count++;
  }

  /** The rows as a JSON array: valid until the next `add` or `clear`. */
  json(): Uint8Array {
    if (this.count === 0) return Buffer.from('[]');
    this.bytes[this.used] = 0x5d; // ]
    return this.bytes.subarray(0, this.used + 1);
  }

  clear(): void {
    this.used = 0;
    this.count = 0;
  }
}

export interface UploadSession {
  session_id: number;
  batch_seq: number;
  last_batch_flag: boolean;
  estimated_num_total: number;
}

export interface BatchAcknowledgement {
  numReceived: number;
  numInvalid: number;
  samples: Record<string, string>;
}

/** `invalid_entry_samples` comes as a map, an array or not at all: always a map here. */
function samplesOf(value: unknown): Record<string, string> {
  if (Array.isArray(value)) return Object.fromEntries(value.map((sample, index) => [String(index), String(sample)]));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([sample, reason]) => [sample, String(reason)]));
  return {};
}

/**
 * One batch of an upload session: add (`POST /users`), remove (`DELETE /users`, hashes in the body)
 * or replace (`POST /usersreplace`). Add and remove batches are harmless to send again; the first
 * replace batch starts the replace and is never sent twice.
 */
export async function sendAudienceBatch(
  session: SocialSession,
  mode: AudienceMode,
  audienceId: string,
  upload: UploadSession,
  schema: ContactKey[],
  rows: AudienceRows,
): Promise<BatchAcknowledgement> {
  const method = mode === 'remove' ? 'DELETE' : 'POST';
  const edge = mode === 'replace' ? 'usersreplace' : 'users';
  const retrySafe = !(mode === 'replace' && upload.batch_seq === 1);
  const { body } = await graphRequest<Record<string, unknown>>(
    session,
    method,
    `${audienceId}/${edge}`,
    { session: upload, payload: { schema, is_raw: true, data: new JsonBytes(rows.json()) } },
    { retrySafe },
  );
  return {
    numReceived: Number(body.num_received) || 0,
    numInvalid: Number(body.num_invalid_entries) || 0,
    samples: samplesOf(body.invalid_entry_samples),
  };
}
