import type { Context } from 'aws-lambda';
import { type Answer, type AuditUnit, unchanged } from '../../../shared/core/audit.ts';
import { type Platform, PlatformNotConnected, PlatformRejected } from '../../../shared/core/errors.ts';
import type { ConversionDestinations } from '../../../shared/platforms/conversions.ts';
import { professionalConversionDestinations } from '../../../shared/platforms/professional/conversion-rules.ts';
import { searchadsConversionDestinations } from '../../../shared/platforms/searchads/conversion-actions.ts';
import { socialConversionDestinations } from '../../../shared/platforms/social/conversion-datasets.ts';
import { answeredNow } from '../../../shared/http/answer-status.ts';
import { EVENTS_PER_REQUEST, ingestEvents, refusedEventIndex, type SearchadsConversionEvent } from '../../../shared/platforms/searchads/conversion-events.ts';
import { searchadsSession } from '../../../shared/platforms/searchads/client.ts';
import type { CrmEvent } from '../../../shared/schemas/conversions.ts';
import { findConversionStages } from '../../../shared/store/conversion-stages.ts';
import type { User } from '../../../shared/store/users.ts';
import { stageUpload } from '../../../shared/storage/staging.ts';
import { newJobId, startJob } from '../jobs/start-job.ts';
import { type ConversionsJobRequest, groupsOf } from './conversions-job-records.ts';
import { type PlannedEvent, planEvents } from './crm-events.ts';

/**
 * `/conversions/send` (docs/conversions.md, "Sending CRM events"): the events planned (every fate
 * decided, the person's values hashed), then either checked (`validateOnly`: 200, each event's fate
 * per platform, search ads asked with its own validateOnly; nothing reaches the other platforms) or
 * staged in the bucket as hashes and handed to a `conversions` job (202 with its id).
 */
export interface SendInput {
  events: CrmEvent[];
  validateOnly?: boolean;
}

const SCOPES: Record<Platform, Pick<ConversionDestinations<never>, 'checkScopes'>> = {
  social: socialConversionDestinations,
  professional: professionalConversionDestinations,
  searchads: searchadsConversionDestinations,
};

type EventCheck = { eventId: string; platforms: Array<{ platform: Platform; status: string; problems?: string[] }> };

type Sent = { jobId: string; status: string } | { events: EventCheck[] };

export async function sendConversions(call: { tenantId: string; user: User; audit: AuditUnit; context: Context }, input: SendInput): Promise<Answer<Sent>> {
  const planned = planEvents(await findConversionStages(call.tenantId, call.user.userId), input.events);
  // every platform an event would go to: connected, with the scope sending needs (else refused whole, before anything is sent)
  const platforms = new Set(
    planned.flatMap((event) => event.deliveries.filter((delivery) => delivery.status === 'queued').map((delivery) => delivery.platform)),
  );
  for (const platform of platforms) {
    if (!call.user.connections[platform]) throw new PlatformNotConnected(platform);
    SCOPES[platform].checkScopes(call.user);
  }
  // a dry run changes nothing: answered at once, and not audited
  if (input.validateOnly) return unchanged<Sent>(answeredNow({ events: await checkEvents(call.user, call.context, planned) }));
  const jobId = newJobId();
  const objectKey = `conversions/${call.tenantId}/${jobId}.jsonl`;
  const file = Buffer.from(planned.map((event) => JSON.stringify(event)).join('\n'));
  await stageUpload(objectKey, file, 'application/x-ndjson');
  const groups = groupsOf(planned);
  const sendsTo = groups.find((group) => platforms.has(group.platform))?.platform;
  const request: ConversionsJobRequest = { objectKey, events: planned.length, groups, ...(sendsTo ? { sendsTo } : {}) };
  return startJob(call, { type: 'conversions', request, checkpoint: {} }, jobId, file.length);
}

/** validateOnly: each event's fate per platform; the search-ads events asked of Google with its own validateOnly, per action. */
async function checkEvents(user: User, context: Context, planned: readonly PlannedEvent[]): Promise<EventCheck[]> {
  const checks = planned.map((event) => ({
    eventId: event.eventId,
    platforms: event.deliveries.map((delivery) => ({ platform: delivery.platform, status: delivery.status as string, problems: [] as string[] })),
  }));
  const byAction = new Map<string, Array<{ event: SearchadsConversionEvent; check: { status: string; problems: string[] } }>>();
  for (const [index, event] of planned.entries())
    for (const [position, delivery] of event.deliveries.entries()) {
      if (delivery.platform !== 'searchads' || delivery.status !== 'queued') continue;
      const list = byAction.get(delivery.destinationId) ?? [];
      list.push({ event: (delivery.payload as { event: SearchadsConversionEvent }).event, check: checks[index]?.platforms[position] as never });
      byAction.set(delivery.destinationId, list);
    }
  if (byAction.size > 0) {
    const session = searchadsSession(user, context);
    for (const [actionId, events] of byAction)
      for (let from = 0; from < events.length; from += EVENTS_PER_REQUEST) await askGoogle(session, actionId, events.slice(from, from + EVENTS_PER_REQUEST));
  }
  return checks.map(({ eventId, platforms }) => ({
    eventId,
    platforms: platforms.map(({ problems, ...standing }) => ({ ...standing, ...(problems.length > 0 ? { problems } : {}) })),
  }));
}

/** Google fails a whole request on its first bad event and names it: that one is marked, the rest asked again. */
async function askGoogle(
  session: ReturnType<typeof searchadsSession>,
  actionId: string,
  events: Array<{ event: SearchadsConversionEvent; check: { status: string; problems: string[] } }>,
): Promise<void> {
  let left = events;
  while (left.length > 0) {
    try {
      await ingestEvents(
        session,
        actionId,
        left.map(({ event }) => event),
        { validateOnly: true },
      );
      return;
    } catch (error) {
      if (!(error instanceof PlatformRejected)) throw error;
      const index = refusedEventIndex(error);
      const refused = index === undefined ? left : left.slice(index, index + 1);
      for (const { check } of refused) {
        check.status = 'rejected';
        check.problems.push(String(error.extra.platformCode ?? 'PLATFORM_REJECTED'));
      }
      if (index === undefined) return;
      left = left.filter((_, position) => position !== index);
    }
  }
}
