import * as z from 'zod';
import { platformSchema } from '../schemas/common.ts';
import type { QueueId } from '../core/queues.ts';

/**
 * What a message of each queue holds, once: the sender builds it with this type and sendMessage checks
 * it, the worker kit (worker.ts) parses it with the same schema. A message names where its work is
 * stored; the worker reads the rest.
 */
const id = z.string().min(1);

/** A message carries a platform body of at most this many bytes itself (SQS takes 256 KB a message); a larger one is read back. */
export const LARGEST_BODY_IN_MESSAGE = 64 * 1024;

export const queueMessages = {
  /** one webhook event's delivery: where the event is stored */
  WebhookDeliveries: z.object({ tenantId: id, sk: id }),
  /** one run of an audience job (its dead-letter queue carries the same) */
  Jobs: z.object({ tenantId: id, jobId: id }),
  /**
   * one group of due rules (a user's rules on one platform, each with the time it was due), or one
   * approved proposal whose process died before it was applied (the scheduler's sweep finds it)
   */
  RuleRuns: z.union([
    z.object({
      tenantId: id,
      userId: id,
      platform: platformSchema,
      rules: z.array(z.object({ ruleId: id, scheduledAt: id })).min(1),
    }),
    z.object({ finishProposal: z.object({ tenantId: id, userId: id, proposalId: id }) }),
  ]),
  /**
   * one verified platform webhook body (where it is stored, and the body itself when it is small: it
   * names ids only, no person's data), or one lead subscription to sweep (which it is): the leads
   * sweep fans out one message per subscription to the same worker
   */
  PlatformEvents: z.union([
    z.object({ platform: z.enum(['social', 'professional']), bodyHash: id, body: z.string().optional() }),
    z.object({ sweep: z.object({ platform: z.enum(['social', 'professional']), target: id, tenantId: id, userId: id }) }),
  ]),
  /** one conversion to one destination: where its item is stored (no person's data) */
  ConversionDeliveries: z.object({ pk: id, sk: id }),
} as const satisfies Record<QueueId, z.ZodType>;

export type QueueMessage<Q extends QueueId> = z.output<(typeof queueMessages)[Q]>;
