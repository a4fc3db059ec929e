import { createHash } from 'node:crypto';
import { unchanged } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { InvalidRequest, LeadNotFound, StageNotMapped } from '../../../shared/core/errors.ts';
import { professionalUserOfLead, socialUserDataOfLead } from '../../../shared/conversions/identifiers.ts';
import { conversionDeliveries } from '../../../shared/flows/flows.ts';
import { flowOn } from '../../../shared/flows/on-table.ts';
import type { ProfessionalConversionEvent } from '../../../shared/platforms/professional/conversion-events.ts';
import type { SocialServerEvent } from '../../../shared/platforms/social/conversion-events.ts';
import type { NormalizedLead } from '../../../shared/schemas/leads.ts';
import { storeOutcome } from '../../../shared/store/conversion-writes.ts';
import { findConversionStages, type StoredStage } from '../../../shared/store/conversion-stages.ts';
import { type ConversionEvent, type ConversionStatus, findConversionEvent, findLeadOutcome } from '../../../shared/store/conversions.ts';
import type { FlowItem } from '../../../shared/store/flow-items.ts';
import { keys } from '../../../shared/store/keys.ts';
import { findLead } from '../../../shared/store/leads.ts';
import type { User } from '../../../shared/store/users.ts';
import { expired, hasIdentifier, outcomeTooFarAhead } from './windows.ts';

/**
 * `/leads/report_outcome` (docs/conversions.md, "A lead's outcome"): a lead the service delivered
 * reached a stage of the user's funnel. It goes to the lead's own platform, to the stage's destination
 * there, matched by the lead itself. On the social platform every earlier stage of the funnel not sent
 * yet for the lead goes first, in order, each its own event. Once per (lead, stage): a repeat answers
 * the same outcome and sends nothing. Each event's fate (sent, or skipped: too old, nothing to match)
 * is decided here, before anything is stored; what is stored holds hashes only.
 */
export interface OutcomeInput {
  leadId: string;
  stage: string;
  occurredAt?: string;
  value?: { amount: string; currency: string };
}

type LeadPlatform = NormalizedLead['platform'];
const LEAD_PLATFORMS: readonly LeadPlatform[] = ['social', 'professional'];
const digest = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** A reported outcome's event id: stable per (lead, stage), whoever reports it, at most 64 characters like every event id. */
export const outcomeEventId = (platform: LeadPlatform, leadId: string, stage: string) =>
  `lead_${digest(`${platform}\u0000${leadId}\u0000${stage.toLowerCase()}`, 40)}`;
const outcomeIdOf = (tenantId: string, platform: LeadPlatform, leadId: string, stage: string) =>
  `out_${digest(`${tenantId}\u0000${platform}\u0000${leadId}\u0000${stage.toLowerCase()}`, 24)}`;

async function deliveredLead(tenantId: string, user: User, leadId: string) {
  for (const platform of LEAD_PLATFORMS) {
    const found = await findLead(tenantId, platform, leadId);
    if (found && found.userId === user.userId) return found.lead;
  }
  throw new LeadNotFound(leadId);
}

const destinationOf = (stage: StoredStage, platform: LeadPlatform) => (platform === 'social' ? stage.social?.datasetId : stage.professional?.conversionRuleId);

/** The event as the platform receives it (hashes only), for one stage of the lead. */
function payloadOf(lead: NormalizedLead, stage: StoredStage, eventId: string, occurredAtMs: number, crmName: string, value: OutcomeInput['value']) {
  if (lead.platform === 'social') {
    const event: SocialServerEvent = {
      event_name: stage.social?.eventName ?? stage.stage,
      event_time: Math.floor(occurredAtMs / 1000),
      event_id: eventId,
      user_data: socialUserDataOfLead(lead),
      custom_data: { lead_event_source: crmName, ...(value ? { value: Number(value.amount), currency: value.currency.toLowerCase() } : {}) },
    };
    return { datasetId: stage.social?.datasetId, event };
  }
  const event: ProfessionalConversionEvent = {
    conversionRuleId: stage.professional?.conversionRuleId as string,
    conversionHappenedAt: occurredAtMs,
    eventId,
    user: professionalUserOfLead(lead),
    ...(value ? { conversionValue: { currencyCode: value.currency.toUpperCase(), amount: value.amount } } : {}),
  };
  return { event };
}

export async function reportOutcome(tenantId: string, user: User, input: OutcomeInput) {
  const lead = await deliveredLead(tenantId, user, input.leadId);
  const platform = lead.platform;
  const funnel = await findConversionStages(tenantId, user.userId);
  const index = funnel?.stages.findIndex((stage) => stage.stage.toLowerCase() === input.stage.toLowerCase()) ?? -1;
  const reached = funnel?.stages[index];
  if (!funnel || !reached || !destinationOf(reached, platform)) throw new StageNotMapped(input.stage, platform);
  const occurredAtMs = input.occurredAt ? Date.parse(input.occurredAt) : clock.now();
  if (outcomeTooFarAhead(occurredAtMs))
    throw new InvalidRequest('occurredAt is more than 5 minutes ahead of now.', [{ path: 'occurredAt', message: 'must not be in the future' }]);

  const outcomeId = outcomeIdOf(tenantId, platform, lead.leadId, reached.stage);
  for (let attempt = 0; attempt < 3; attempt++) {
    const earlier = await findLeadOutcome(tenantId, platform, lead.leadId, reached.stage);
    if (earlier) return unchanged({ outcomeId: earlier.outcomeId, eventIds: earlier.eventIds, status: 'queued' as const });
    // the social platform wants every stage of a lead, earliest first; the professional one the stage alone
    const chain = platform === 'social' ? funnel.stages.slice(0, index + 1).filter((stage) => destinationOf(stage, platform)) : [reached];
    const events: ConversionEvent[] = [];
    const deliveries: FlowItem[] = [];
    let before: { pk: string; sk: string } | undefined;
    for (const stage of chain) {
      const eventId = outcomeEventId(platform, lead.leadId, stage.stage);
      const key = { pk: keys.conversionPk(tenantId, eventId), sk: keys.conversionDelivery(platform, destinationOf(stage, platform) as string) };
      const existing = await findConversionEvent(tenantId, eventId);
      if (!existing) {
        const payload = payloadOf(lead, stage, eventId, occurredAtMs, funnel.crmName, stage === reached ? input.value : undefined);
        const status: ConversionStatus = expired(platform, occurredAtMs)
          ? 'skipped_expired'
          : hasIdentifier(platform, payload.event)
            ? 'queued'
            : 'skipped_no_identifier';
        const createdAt = clock.date().toISOString();
        events.push({
          eventId,
          userId: user.userId,
          stage: stage.stage,
          occurredAt: new Date(occurredAtMs).toISOString(),
          leadId: lead.leadId,
          leadPlatform: platform,
          createdAt,
        });
        const attributes = {
          tenantId,
          userId: user.userId,
          eventId,
          platform,
          destinationId: destinationOf(stage, platform),
          stage: stage.stage,
          occurredAtMs,
          status,
          inFlight: false,
          payload,
          listing: { pk: keys.conversionsPk(tenantId, user.userId), sk: keys.conversionListing(createdAt, eventId) },
          ...(before ? { after: before } : {}),
        };
        if (status !== 'queued') {
          deliveries.push({ ...key, ...attributes });
          continue; // a stage skipped holds up none after it
        }
        // the one before, if it is new here too, hands this one to the queue when it ends
        const previous = deliveries.at(-1);
        if (previous && before && previous.pk === before.pk && previous.sk === before.sk) previous.next = key;
        deliveries.push(flowOn(conversionDeliveries).item(key, attributes));
      }
      before = key;
    }
    const eventIds = chain.map((stage) => outcomeEventId(platform, lead.leadId, stage.stage));
    const written = await storeOutcome(
      tenantId,
      { platform, leadId: lead.leadId },
      { outcomeId, eventIds, stage: reached.stage, createdAt: clock.date().toISOString() },
      events,
      deliveries,
      lead.campaignId ? { userId: user.userId, campaignId: lead.campaignId, day: new Date(occurredAtMs).toISOString().slice(0, 10) } : undefined,
    );
    if (written === 'stored') {
      // each waiting one is queued by the one before it when that one ends (deliver-conversion.ts)
      const handedOn = new Set(deliveries.flatMap((item) => (item.next ? [JSON.stringify(item.next)] : [])));
      for (const delivery of deliveries.filter((item) => item.status === 'queued' && !handedOn.has(JSON.stringify({ pk: item.pk, sk: item.sk }))))
        await flowOn(conversionDeliveries).announce(delivery);
      return { outcomeId, eventIds, status: 'queued' as const };
    }
    // another report of the lead wrote first: read what it wrote, and answer or build on it
  }
  throw new Error('a lead’s outcome kept meeting concurrent reports of the same lead');
}
