import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import type { JobRun } from './job-run.ts';
import { pollEachUntil } from './steps.ts';

/**
 * Google's Data Manager requests followed to their end on the job queue's delays (docs/google-audiences.md,
 * docs/conversions.md): the first read `SEARCHADS_FIRST_WAIT_SECONDS` after the last accepted request,
 * then waits doubling up to 30 minutes, for at most 72 hours. Shared by the audience and conversion jobs.
 */
const MAX_POLL_SECONDS = 30 * 60;
const FOLLOW_FOR_MS = 72 * 3_600_000;
export const FINAL_REQUEST_STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'REQUEST_STATUS_UNKNOWN']);

export function followGoogleRequests<Item extends { status?: string }>(
  run: JobRun,
  checkpoint: { polls?: number; lastAcceptedAt?: number },
  requests: readonly Item[],
  read: (item: Item) => Promise<void>,
  giveUp: (left: readonly Item[]) => void,
): Promise<void> {
  const acceptedAt = checkpoint.lastAcceptedAt ?? clock.now();
  return pollEachUntil(run, {
    items: requests,
    final: (sent) => sent.status !== undefined,
    count: checkpoint,
    key: 'polls',
    first: { since: acceptedAt, seconds: config().SEARCHADS_FIRST_WAIT_SECONDS },
    delays: (polls) => Math.min(MAX_POLL_SECONDS, config().SEARCHADS_FIRST_WAIT_SECONDS * 2 ** polls),
    deadline: acceptedAt + FOLLOW_FOR_MS,
    read,
    giveUp,
  });
}
