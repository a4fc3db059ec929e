import { config } from '../core/config.ts';
import { LARGEST_BODY_IN_MESSAGE, type QueueMessage } from '../queue/messages.ts';
import type { FlowItem, FlowName } from '../store/flow-items.ts';
import type { FlowDefinition } from './event-flow.ts';

/**
 * The event flows of the service, each stated once (docs/architecture.md, "The event flow", says how
 * to add one): what it queues, where, and how long a queued item may stay unsettled. This module
 * holds no queue client (on-table.ts does), so a function that only writes items bundles none.
 */

/** Verified platform webhook bodies (docs/leads.md): the message carries the body itself when it is small. */
export const inboundBodies: FlowDefinition<QueueMessage<'PlatformEvents'>> = {
  name: 'inbound',
  queue: 'PlatformEvents',
  messageOf: (item) => ({
    platform: item.platform as 'social' | 'professional',
    bodyHash: String(item.bodyHash),
    ...(typeof item.body === 'string' && Buffer.byteLength(item.body, 'utf8') <= LARGEST_BODY_IN_MESSAGE ? { body: item.body } : {}),
  }),
  leaseMs: () => 60_000,
};

/** Webhook events to the tenants (docs/architecture.md, "The way of a webhook"): the message names the event; one queue group per tenant. */
export const webhookEvents: FlowDefinition<QueueMessage<'WebhookDeliveries'>> = {
  name: 'webhooks',
  queue: 'WebhookDeliveries',
  messageOf: (item: FlowItem) => ({ tenantId: String(item.tenantId), sk: item.sk }),
  groupOf: (item) => String(item.tenantId),
  leaseMs: () => config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000,
};

/**
 * Conversions to the platforms (docs/conversions.md): one item per (tenant, event, destination), the
 * message names it. Its lease outlasts a run (the worker's timeout) and the wait a throttled send
 * parks for is added to it, so the sweep queues only what was lost.
 */
export const conversionDeliveries: FlowDefinition<QueueMessage<'ConversionDeliveries'>> = {
  name: 'conversions',
  queue: 'ConversionDeliveries',
  messageOf: (item: FlowItem) => ({ pk: item.pk, sk: item.sk }),
  leaseMs: () => 3 * 60_000,
};

export const FLOW_DEFINITIONS: Record<FlowName, FlowDefinition<unknown>> = {
  inbound: inboundBodies,
  webhooks: webhookEvents,
  conversions: conversionDeliveries,
};
