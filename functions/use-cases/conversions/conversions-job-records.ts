import * as z from 'zod';
import { PLATFORMS, type Platform } from '../../../shared/core/errors.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { VersionedSettings } from '../../../shared/store/tenant-settings.ts';
import { type PlannedEvent, SEND_ORDER } from './crm-events.ts';

/**
 * What a `conversions` job keeps (docs/conversions.md, "Delivery of CRM events"): its request (the
 * staged file of planned events, and the destinations they go to, in sending order) and its
 * checkpoint. Positions count a destination's events in the file's order.
 */
const groupSchema = z.object({ platform: z.enum(PLATFORMS), destinationId: z.string() });
export type DestinationGroup = z.infer<typeof groupSchema>;

export const conversionsJobRequestSchema = z.object({
  objectKey: z.string(),
  etag: z.string().optional(),
  /** how many events the file holds */
  events: z.number(),
  groups: z.array(groupSchema),
  /** the first platform an event is sent to: the connection every save of the job checks is still there */
  sendsTo: z.enum(PLATFORMS).optional(),
});
export type ConversionsJobRequest = z.infer<typeof conversionsJobRequestSchema>;

/** A search-ads request Google accepted: the positions it covered, then how it ended. */
const sentRequestSchema = z.object({
  group: z.number(),
  from: z.number(),
  to: z.number(),
  requestId: z.string(),
  events: z.number(),
  status: z.string().optional(),
  reasons: z.record(z.string(), z.number()).optional(),
});
export type SentEventsRequest = z.infer<typeof sentRequestSchema>;

export const conversionsCheckpointSchema = z.object({
  /** events of the file recorded so far (each once per tenant: a known id is not this job's) */
  recorded: z.number().default(0),
  /** events whose id the tenant had already sent: not sent again */
  known: z.number().default(0),
  /** the destination being sent to, and the position its next request begins at */
  group: z.number().default(0),
  position: z.number().default(0),
  /** a request sent and not answered yet (positions): a run that finds it decides as DESIGN says (resend or unknown) */
  inFlight: z.object({ from: z.number(), to: z.number() }).optional(),
  sent: z.array(sentRequestSchema).default([]),
  polls: z.number().default(0),
  lastAcceptedAt: z.number().optional(),
  /** platform requests made */
  requests: z.number().default(0),
});
export type ConversionsCheckpoint = z.infer<typeof conversionsCheckpointSchema>;

/** The destinations the planned events go to (skipped ones too: the result counts them), in sending order. */
export function groupsOf(planned: readonly PlannedEvent[]): DestinationGroup[] {
  const seen = new Map<string, DestinationGroup>();
  for (const event of planned)
    for (const { platform, destinationId } of event.deliveries) seen.set(`${platform}#${destinationId}`, { platform, destinationId });
  const rank = (platform: Platform) => SEND_ORDER.indexOf(platform);
  return [...seen.values()].sort((a, b) => rank(a.platform) - rank(b.platform));
}

export type ConversionsJob = Job<ConversionsJobRequest, ConversionsCheckpoint>;

/** One destination's sending: its events' ids in the file's order (a position indexes them), the tenant's settings, the platform session. */
export interface Batch {
  job: ConversionsJob;
  group: DestinationGroup;
  members: string[];
  settings: VersionedSettings;
  session: unknown;
}
