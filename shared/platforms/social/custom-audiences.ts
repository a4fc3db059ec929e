import { randomInt } from 'node:crypto';
import { clock } from '../../clock.ts';
import { PlatformRejected } from '../../errors.ts';
import type { ContactKey } from '../../audiences/normalize.ts';
import { graphRequest, type SocialSession } from './client.ts';

/** Contract §5: customer-file custom audiences and their upload sessions. */
export type AudienceMode = 'create' | 'append' | 'replace' | 'remove';
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
  data: string[][],
): Promise<BatchAcknowledgement> {
  const method = mode === 'remove' ? 'DELETE' : 'POST';
  const edge = mode === 'replace' ? 'usersreplace' : 'users';
  const retrySafe = !(mode === 'replace' && upload.batch_seq === 1);
  const { body } = await graphRequest<Record<string, unknown>>(
    session,
    method,
    `${audienceId}/${edge}`,
    { session: upload, payload: { schema, is_raw: true, data } },
    { retrySafe },
  );
  return {
    numReceived: Number(body.num_received) || 0,
    numInvalid: Number(body.num_invalid_entries) || 0,
    samples: samplesOf(body.invalid_entry_samples),
  };
}
