import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { clock } from '../../../shared/core/clock.ts';
import { type Platform, PlatformAuthExpired, PlatformNotConnected, PlatformRateLimited, PlatformRejected, ScopeMissing } from '../../../shared/core/errors.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { searchadsSession } from '../../../shared/platforms/searchads/client.ts';
import { requestStatus } from '../../../shared/platforms/searchads/data-manager.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { deleteStagedUpload } from '../../../shared/storage/staging.ts';
import { storeSentEvent } from '../../../shared/store/conversion-writes.ts';
import { type ConversionDelivery, deliveryKey, findConversionDeliveries, findConversionEvent } from '../../../shared/store/conversions.ts';
import { keys } from '../../../shared/store/keys.ts';
import { loadTenantSettings } from '../../../shared/store/tenant-settings.ts';
import { findUser, type User } from '../../../shared/store/users.ts';
import { readJobFile } from '../jobs/job-files.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { type JobRun, Pause } from '../jobs/job-run.ts';
import { FINAL_REQUEST_STATUSES, followGoogleRequests } from '../jobs/google-requests.ts';
import { lostAnswer } from '../jobs/steps.ts';
import { type BatchEnding, endDeliveries, type Outcome, PLATFORM_BATCHES, refusalOfBatch, sendBatch } from './conversion-batches.ts';
import {
  type ConversionsCheckpoint,
  conversionsCheckpointSchema,
  conversionsJobRequestSchema,
  type Batch,
  type ConversionsJob,
  type DestinationGroup,
} from './conversions-job-records.ts';
import type { PlannedEvent } from './crm-events.ts';
import type { ConversionsResult } from '../../../shared/schemas/conversions.ts';

/**
 * The events of one /conversions/send call, delivered (docs/conversions.md, "Delivery of CRM events"):
 *
 * 1. record: each event written once per tenant with its deliveries, owned by this job; an id the
 *    tenant sent before keeps its first outcome and is not this job's to send.
 * 2. send, destination by destination: this job's queued deliveries in requests of at most 1,000
 *    (social), 5,000 (professional) or 2,000 (search ads) events. Each request is marked in flight in
 *    the checkpoint before it goes. A refusal that names no event splits the request in halves until
 *    the refused event is alone (Google names it: that one is dropped, the rest sent again). Throttling
 *    parks the job. A lost answer is sent again on the social and search-ads platforms (they deduplicate
 *    on the event's id); on the professional one its events end `unknown`.
 * 3. follow: each accepted search-ads request's status read on queue delays until it ends.
 */
export const conversionsJob = defineJobKind({
  type: 'conversions',
  request: conversionsJobRequestSchema,
  checkpoint: conversionsCheckpointSchema,
  // every save checks the user still holds the connection of the first platform it sends to (none skipped only); each request opens its own
  platformOf: (request) => request.sendsTo ?? request.groups[0]?.platform ?? 'social',
  run: runConversionsJob,
  endEvents: { succeeded: 'conversions_job.succeeded', failed: 'conversions_job.failed' },
  endAudit: (job) => ({
    action: 'conversions_job.finished',
    target: { type: 'conversions_job', id: job.jobId },
    changes: { events: { to: job.request.events }, requests: { to: job.checkpoint.requests } },
  }),
  // the staged events (hashes) are let go once the job has ended
  afterEnd: (job) => deleteStagedUpload(job.request.objectKey),
});

const RECORD_AT_ONCE = 25;
const SAVE_EVERY_EVENTS = 500;
/** how long the job parks when a platform that deduplicates did not answer: the request is then sent again as it was */
const UNREACHABLE_PARK_SECONDS = 60;
/** The professional platform's answer never came: it keeps no record to deduplicate on, so the events are not sent again. */
const LOST_ANSWER: Outcome = {
  status: 'unknown',
  error: { code: 'UNKNOWN_OUTCOME', message: 'The platform’s answer was lost; it keeps no record to deduplicate on, so the event is not sent again.' },
};

async function runConversionsJob(run: JobRun, job: ConversionsJob, user: User): Promise<ConversionsResult> {
  const { request, checkpoint } = job;
  if (checkpoint.recorded < request.events) await recordEvents(run, job);
  const settings = await loadTenantSettings(job.tenantId);
  const sessions = sessionsOf(user, run);
  for (; checkpoint.group < request.groups.length; checkpoint.group++, checkpoint.position = 0, await run.save()) {
    const group = request.groups[checkpoint.group] as DestinationGroup;
    const members = await groupMembers(run, job, checkpoint.group);
    let session: unknown;
    try {
      // the user as they are now: one who let a platform go since the call is seen at its destination's turn
      session = sessionsOf((await findUser(job.tenantId, job.userId)) ?? user, run)[group.platform]();
    } catch (error) {
      if (!(error instanceof PlatformNotConnected)) throw error;
      // the user let this platform go since the call: its events end here, the others go on
      const gone: Batch = { job, group, members, settings, session: undefined };
      await endDeliveries(gone, await ownedQueued(gone, 0, members.length), {
        status: 'rejected',
        error: { code: 'PLATFORM_NOT_CONNECTED', message: `The user has no ${group.platform} connection any more.` },
      });
      continue;
    }
    const batch = { job, group, members, settings, session };
    if (checkpoint.inFlight && group.platform === 'professional') {
      // the request may have been taken; the platform would count it twice: its events end unknown
      await endDeliveries(batch, await ownedQueued(batch, checkpoint.inFlight.from, checkpoint.inFlight.to), LOST_ANSWER);
      checkpoint.inFlight = undefined;
      await run.save();
    }
    const size = PLATFORM_BATCHES[group.platform];
    while (checkpoint.position < members.length) {
      run.checkTime();
      const to = Math.min(checkpoint.position + size, members.length);
      await sendRange(run, batch, checkpoint.position, to);
      checkpoint.position = to;
      await run.save();
    }
  }
  await followSearchads(run, job, sessions, settings);
  return tally(run, job);
}

const sessionsOf = (user: User, run: JobRun) => ({
  social: () => socialSession(user, run.context),
  professional: () => professionalSession(user, run.context),
  searchads: () => searchadsSession(user, run.context),
});

/** The planned events of the staged file, from the `skip`-th on. */
async function* plannedEvents(run: JobRun, job: ConversionsJob, skip = 0, countBytes = false): AsyncGenerator<PlannedEvent> {
  const bytes = await readJobFile(run, job.request, { countBytes });
  const lines = createInterface({ input: Readable.from(bytes), crlfDelay: Number.POSITIVE_INFINITY });
  let index = 0;
  for await (const line of lines) {
    if (!line) continue;
    if (index++ < skip) continue;
    yield JSON.parse(line) as PlannedEvent;
  }
}

const deliveryKeyOf = (job: ConversionsJob, group: DestinationGroup, eventId: string) => ({
  pk: keys.conversionPk(job.tenantId, eventId),
  sk: keys.conversionDelivery(group.platform, group.destinationId),
});

/** Step 1: every event written once, a few at a time, the count saved as it goes. */
async function recordEvents(run: JobRun, job: ConversionsJob): Promise<void> {
  const { checkpoint } = job;
  let pending: PlannedEvent[] = [];
  let sinceSave = 0;
  const flush = async () => {
    const outcomes = await Promise.all(pending.map((event) => recordEvent(job, event)));
    checkpoint.known += outcomes.filter((outcome) => outcome === 'known').length;
    checkpoint.recorded += pending.length;
    job.progress.rowsRead = checkpoint.recorded;
    sinceSave += pending.length;
    pending = [];
    if (sinceSave >= SAVE_EVERY_EVENTS || checkpoint.recorded === job.request.events) {
      sinceSave = 0;
      await run.save();
    }
  };
  for await (const event of plannedEvents(run, job, checkpoint.recorded, true)) {
    pending.push(event);
    if (pending.length === RECORD_AT_ONCE) {
      run.checkTime();
      await flush();
    }
  }
  if (pending.length > 0) await flush();
}

async function recordEvent(job: ConversionsJob, planned: PlannedEvent): Promise<'stored' | 'known'> {
  const createdAt = clock.date().toISOString();
  const listing = { pk: keys.conversionsPk(job.tenantId, job.userId), sk: keys.conversionListing(createdAt, planned.eventId) };
  const deliveries: ConversionDelivery[] = planned.deliveries.map((delivery) => ({
    pk: keys.conversionPk(job.tenantId, planned.eventId),
    sk: keys.conversionDelivery(delivery.platform, delivery.destinationId),
    tenantId: job.tenantId,
    userId: job.userId,
    eventId: planned.eventId,
    platform: delivery.platform,
    destinationId: delivery.destinationId,
    stage: planned.stage,
    occurredAtMs: planned.occurredAtMs,
    status: delivery.status,
    payload: delivery.payload,
    listing,
    jobId: job.jobId,
  }));
  const event = { eventId: planned.eventId, userId: job.userId, stage: planned.stage, occurredAt: planned.occurredAt, createdAt, jobId: job.jobId };
  if ((await storeSentEvent(job.tenantId, event, deliveries)) === 'stored') return 'stored';
  // written before: by this job (a run that died before saving its count), or by an earlier call
  const earlier = await findConversionEvent(job.tenantId, planned.eventId);
  return (earlier?.event as { jobId?: string } | undefined)?.jobId === job.jobId ? 'stored' : 'known';
}

/** The ids of the events that go to the group's destination, in the file's order (a position is an index here). */
async function groupMembers(run: JobRun, job: ConversionsJob, index: number): Promise<string[]> {
  const group = job.request.groups[index] as DestinationGroup;
  const members: string[] = [];
  for await (const event of plannedEvents(run, job))
    if (event.deliveries.some((delivery) => delivery.platform === group.platform && delivery.destinationId === group.destinationId))
      members.push(event.eventId);
  return members;
}

/** This job's deliveries still queued among the positions, less those in a search-ads request Google accepted. */
export async function ownedQueued(batch: Batch, from: number, to: number): Promise<ConversionDelivery[]> {
  const { job, group, members } = batch;
  const accepted = job.checkpoint.sent.filter((sent) => sent.group === job.checkpoint.group);
  const positions = Array.from({ length: to - from }, (_, offset) => from + offset).filter(
    (position) => !accepted.some((sent) => position >= sent.from && position < sent.to),
  );
  const wanted = positions.map((position) => deliveryKeyOf(job, group, members[position] as string));
  const found = await findConversionDeliveries(wanted);
  return wanted.flatMap((key) => {
    const delivery = found.get(deliveryKey(key));
    return delivery && delivery.jobId === job.jobId && delivery.status === 'queued' ? [delivery] : [];
  });
}

/**
 * One request for the positions [from, to): marked in flight, sent, ended. A refusal of the whole
 * request for one event is split in halves until that event is alone; Google names its event, which
 * ends alone while the rest go again.
 */
async function sendRange(run: JobRun, batch: Batch, from: number, to: number): Promise<void> {
  const { checkpoint } = batch.job;
  const deliveries = await ownedQueued(batch, from, to);
  if (deliveries.length === 0) return;
  checkpoint.inFlight = { from, to };
  await run.save();
  let ending: BatchEnding;
  try {
    checkpoint.requests++;
    ending = await sendBatch(batch, deliveries);
  } catch (error) {
    if (error instanceof PlatformRateLimited || error instanceof PlatformAuthExpired) {
      // refused, not taken: nothing is in flight
      checkpoint.inFlight = undefined;
      await run.save();
      if (error instanceof PlatformRateLimited) throw new Pause(error.retryAfterSeconds);
      throw error;
    }
    if (lostAnswer(error)) {
      if (batch.group.platform !== 'professional') throw new Pause(UNREACHABLE_PARK_SECONDS); // sent again as it was
      ending = { kind: 'ended', outcome: LOST_ANSWER };
    } else if (error instanceof PlatformRejected || error instanceof ScopeMissing) ending = refusalOfBatch(batch, error, deliveries.length);
    else throw error;
  }
  if (ending.kind === 'accepted') {
    checkpoint.sent.push({ group: checkpoint.group, from, to, requestId: ending.requestId, events: deliveries.length });
    checkpoint.lastAcceptedAt = clock.now();
    job(batch).progress.batchesSent++;
    job(batch).progress.rowsSent += deliveries.length;
  } else if (ending.kind === 'ended') {
    await endDeliveries(batch, deliveries, ending.outcome, ending.statuses);
    if (ending.outcome.status !== 'rejected') {
      job(batch).progress.batchesSent++;
      job(batch).progress.rowsSent += deliveries.length;
    }
  } else if (ending.kind === 'drop') {
    await endDeliveries(batch, [deliveries[ending.index] as ConversionDelivery], ending.outcome);
  }
  checkpoint.inFlight = undefined;
  await run.save();
  if (ending.kind === 'drop') return sendRange(run, batch, from, to);
  if (ending.kind === 'split') {
    // the queued events in halves: the positions narrow until the refused event is the only one queued among them
    const positions = positionsOf(batch, deliveries);
    const half = positions[Math.ceil(positions.length / 2)] as number;
    await sendRange(run, batch, from, half);
    await sendRange(run, batch, half, to);
  }
}

const job = (batch: Batch) => batch.job;

/** Where the deliveries sit among the group's positions. */
function positionsOf(batch: Batch, deliveries: readonly ConversionDelivery[]): number[] {
  const index = new Map(batch.members.map((eventId, position) => [eventId, position]));
  return deliveries.map((delivery) => index.get(delivery.eventId) as number).sort((a, b) => a - b);
}

/** Step 3: the accepted search-ads requests followed to their end on queue delays, then their events ended. */
async function followSearchads(run: JobRun, job: ConversionsJob, sessions: ReturnType<typeof sessionsOf>, settings: Batch['settings']): Promise<void> {
  const { checkpoint } = job;
  if (checkpoint.sent.length === 0) return;
  const session = sessions.searchads();
  await followGoogleRequests(
    run,
    checkpoint,
    checkpoint.sent,
    async (sent) => {
      const status = await requestStatus(session, sent.requestId);
      if (!FINAL_REQUEST_STATUSES.has(status.status)) return;
      await endAccepted(run, job, sent, status, settings);
      sent.status = status.status;
      if (Object.keys(status.errors).length > 0) sent.reasons = status.errors;
      await run.save();
    },
    () => undefined,
  );
  // the requests whose status never ended within 72 hours: their events' fate is unknown
  for (const sent of checkpoint.sent.filter((request) => request.status === undefined)) {
    await endAccepted(run, job, sent, { status: 'REQUEST_STATUS_UNKNOWN', errors: {} }, settings);
    sent.status = 'REQUEST_STATUS_UNKNOWN';
    await run.save();
  }
}

const DUPLICATE = /DUPLICATE_(TRANSACTION_ID|GCLID)$/;

async function endAccepted(
  run: JobRun,
  job: ConversionsJob,
  sent: ConversionsCheckpoint['sent'][number],
  status: { status: string; errors: Record<string, number> },
  settings: Batch['settings'],
): Promise<void> {
  const group = job.request.groups[sent.group] as DestinationGroup;
  const batch: Batch = { job, group, members: await groupMembers(run, job, sent.group), settings, session: undefined };
  const wanted = batch.members.slice(sent.from, sent.to).map((eventId) => deliveryKeyOf(job, group, eventId));
  const found = await findConversionDeliveries(wanted);
  const deliveries = wanted.flatMap((key) => {
    const delivery = found.get(deliveryKey(key));
    return delivery && delivery.jobId === job.jobId && delivery.status === 'queued' ? [delivery] : [];
  });
  // a resent event counted as a duplicate was taken the first time
  const refusals = Object.keys(status.errors).filter((reason) => !DUPLICATE.test(reason));
  if (status.status === 'REQUEST_STATUS_UNKNOWN')
    return endDeliveries(batch, deliveries, {
      status: 'unknown',
      error: { code: 'UNKNOWN_OUTCOME', message: 'Google did not tell how its request ended within 72 hours.' },
    });
  if (refusals.length === 0 || status.status === 'SUCCESS') return endDeliveries(batch, deliveries, { status: 'delivered' });
  const error = { code: 'PLATFORM_REJECTED', message: `Google refused events of the request after accepting it (${refusals.join(', ')}).` };
  // which events Google refused is known only when the request held one, or refused every one
  if (status.status === 'FAILED' || deliveries.length === 1) return endDeliveries(batch, deliveries, { status: 'rejected', error });
  return endDeliveries(batch, deliveries, { status: 'delivered' });
}

/** The call's events counted by where they ended, per platform. */
async function tally(run: JobRun, job: ConversionsJob): Promise<ConversionsResult> {
  const platforms: ConversionsResult['platforms'] = {};
  const warnings: string[] = [];
  for (const [index, group] of job.request.groups.entries()) {
    const members = await groupMembers(run, job, index);
    const counts = platforms[group.platform] ?? {};
    platforms[group.platform] = counts;
    for (let from = 0; from < members.length; from += 1_000) {
      const wanted = members.slice(from, from + 1_000).map((eventId) => deliveryKeyOf(job, group, eventId));
      for (const delivery of (await findConversionDeliveries(wanted)).values())
        if (delivery.jobId === job.jobId) counts[delivery.status] = (counts[delivery.status] ?? 0) + 1;
    }
  }
  const partial = job.checkpoint.sent.filter(
    (sent) => sent.status === 'PARTIAL_SUCCESS' && Object.keys(sent.reasons ?? {}).some((reason) => !DUPLICATE.test(reason)),
  );
  for (const sent of partial)
    warnings.push(
      `Google refused some of the ${sent.events} events of request ${sent.requestId} after accepting them (${Object.entries(sent.reasons ?? {})
        .map(([reason, count]) => `${reason}: ${count}`)
        .join(', ')}); which ones it does not say, so they show as delivered.`,
    );
  return { events: job.request.events, alreadySent: job.checkpoint.known, platforms, ...(warnings.length > 0 ? { warnings } : {}) };
}

export type { Platform };
