/**
 * The queues, defined once: the CDK stack and the local stack (an SQS emulator) both build them from
 * here, each with its dead-letter queue. Their URLs reach the functions through configuration.
 */
export interface QueueDefinition {
  /** logical id, used by CDK and as the local queue's name */
  id: 'WebhookDeliveries';
  configKey: 'WEBHOOK_QUEUE_URL';
  /** how long a received message stays hidden: well above the worker's timeout, so a crashed run is redelivered after it */
  visibilityTimeoutSeconds: number;
  /** receives before a message goes to the dead-letter queue (the worker's own retry schedule ends sooner) */
  maxReceiveCount: number;
  /** the consumer's timeout; the worker's own time limits fit inside it */
  consumerTimeoutSeconds: number;
}

/** One message per webhook event delivery; retries reuse the message, delayed by its visibility. */
export const webhookQueue: QueueDefinition = {
  id: 'WebhookDeliveries',
  configKey: 'WEBHOOK_QUEUE_URL',
  visibilityTimeoutSeconds: 90,
  maxReceiveCount: 20,
  consumerTimeoutSeconds: 30,
};

export const queueDefinitions = [webhookQueue] as const;
export type QueueId = (typeof queueDefinitions)[number]['id'];

/** The schedules, defined once: EventBridge rules in the cloud, timers in `npm start`. */
export const schedules = {
  /** re-queues webhook events whose delivery message was lost (a crash between storing and queuing); also once at start */
  webhookSweep: { id: 'WebhookSweep', everyMinutes: 5, runAtStart: true },
  /** renews, checks and marks every connection (DESIGN.md "Connection health"); first one interval after start */
  connectionLifecycle: { id: 'ConnectionLifecycle', everyMinutes: 60, runAtStart: false },
} as const;
export type ScheduleId = keyof typeof schedules;
