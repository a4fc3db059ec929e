/**
 * The queues, defined once: the CDK stack and the local stack (an SQS emulator) both build them from
 * here, each with its dead-letter queue. Their URLs reach the functions through configuration.
 */
export interface QueueDefinition {
  /** logical id, used by CDK and as the local queue's name */
  id: 'WebhookDeliveries' | 'Jobs' | 'RuleRuns' | 'PlatformEvents' | 'ConversionDeliveries';
  configKey: 'WEBHOOK_QUEUE_URL' | 'JOB_QUEUE_URL' | 'RULE_RUN_QUEUE_URL' | 'PLATFORM_EVENT_QUEUE_URL' | 'CONVERSION_QUEUE_URL';
  /** how long a received message stays hidden: well above the worker's timeout, so a crashed run is redelivered after it */
  visibilityTimeoutSeconds: number;
  /** receives before a message goes to the dead-letter queue (the worker's own retry schedule ends sooner) */
  maxReceiveCount: number;
  /** the consumer's timeout; the worker's own time limits fit inside it */
  consumerTimeoutSeconds: number;
  /** messages handed to one invocation */
  batchSize: number;
}

/** One message per webhook event delivery; retries reuse the message, delayed by its visibility. */
export const webhookQueue: QueueDefinition = {
  id: 'WebhookDeliveries',
  configKey: 'WEBHOOK_QUEUE_URL',
  visibilityTimeoutSeconds: 90,
  maxReceiveCount: 20,
  consumerTimeoutSeconds: 30,
  batchSize: 10,
};

/**
 * One message per job run: the start, each continuation the worker queues before its time
 * runs out, a wait the platform asked for. A run that crashes is handed back after the visibility
 * timeout; after maxReceiveCount the message goes to the dead-letter queue, whose consumer ends the
 * job `failed`.
 */
export const jobQueue: QueueDefinition = {
  id: 'Jobs',
  configKey: 'JOB_QUEUE_URL',
  visibilityTimeoutSeconds: 960,
  maxReceiveCount: 5,
  consumerTimeoutSeconds: 900,
  batchSize: 1, // a run may take the whole timeout
};

/**
 * One message per (tenant, user, platform) group of due rules: the evaluator reads the group's
 * metrics once per window and runs every rule of it. A run that crashes is handed back after the
 * visibility timeout and acts once (each action is keyed by rule, campaign and run).
 */
export const ruleRunQueue: QueueDefinition = {
  id: 'RuleRuns',
  configKey: 'RULE_RUN_QUEUE_URL',
  visibilityTimeoutSeconds: 360,
  maxReceiveCount: 5,
  consumerTimeoutSeconds: 300,
  batchSize: 1,
};

/**
 * One message per verified platform webhook body (docs/leads.md): the body is stored before the
 * platform is answered; the worker reads each lead it names once per tenant and delivers it. A body
 * whose message was lost is found by the leads sweep.
 */
export const platformEventQueue: QueueDefinition = {
  id: 'PlatformEvents',
  configKey: 'PLATFORM_EVENT_QUEUE_URL',
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: 8,
  consumerTimeoutSeconds: 60,
  batchSize: 5,
};

/**
 * One message per conversion to send to one destination (docs/conversions.md): an item of the
 * `conversions` event flow. A request the platform throttles goes back with a delay; a message lost
 * is found by the flows' sweep.
 */
export const conversionQueue: QueueDefinition = {
  id: 'ConversionDeliveries',
  configKey: 'CONVERSION_QUEUE_URL',
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: 10,
  consumerTimeoutSeconds: 60,
  batchSize: 5,
};

export const queueDefinitions = [webhookQueue, jobQueue, ruleRunQueue, platformEventQueue, conversionQueue] as const;
export type QueueId = (typeof queueDefinitions)[number]['id'];

/** The schedules, defined once: EventBridge rules in the cloud, timers in `npm start`. */
export const schedules = {
  /** re-queues the event flows' items whose message was lost (a crash between storing and queuing, a dead letter); also once at start */
  flowSweep: { id: 'FlowSweep', everyMinutes: 5, runAtStart: true },
  /** renews, checks and marks every connection (docs/decisions.md "Connection health"); first one interval after start */
  connectionLifecycle: { id: 'ConnectionLifecycle', everyMinutes: 60, runAtStart: false },
  /** re-queues jobs whose checkpoint stopped moving (a lost message), on the lifecycle's interval; `npm start` re-queues every unfinished job when it starts */
  jobSweep: { id: 'JobSweep', everyMinutes: 60, runAtStart: false },
  /** finds the rules that are due and queues one run per (tenant, user, platform); `npm start`: every RULES_INTERVAL_SECONDS */
  ruleSchedule: { id: 'RuleSchedule', everyMinutes: 15, runAtStart: false },
  /** finds leads a platform webhook did not bring (dropped, or read while a grant was dead); `npm start`: every LEADS_SWEEP_SECONDS */
  leadsSweep: { id: 'LeadsSweep', everyMinutes: 60, runAtStart: false },
} as const;
export type ScheduleId = keyof typeof schedules;
