import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { QueueId } from '../core/queues.ts';
import { log, withRequestLogger } from '../core/logger.ts';
import { type QueueMessage, queueMessages } from './messages.ts';

/**
 * The one way a queue is consumed: `queueWorker(queue, options, handle)` is a Lambda handler over
 * Powertools' batch processor (partial batch responses). Each record's body is parsed with the queue's
 * schema (messages.ts); one the schema does not describe is logged and dropped (the queue would only
 * hand it back). A record whose handling throws is reported failed, so the queue hands it back after
 * its visibility timeout and, after its last receive, to the dead-letter queue; `HandBack` does that
 * on purpose (a retry whose visibility the handler set), without an error in the log.
 */
export class HandBack extends Error {
  constructor() {
    super('handed back to the queue on purpose');
    this.name = 'HandBack';
  }
}

export interface WorkerOptions {
  /** the function's name, in every log line of a record */
  operation: string;
  /** records at once (each alone: one slow record does not hold up the others) or one after another */
  parallel?: boolean;
  /** once per invocation, before the records (the platforms' app credentials) */
  before?: () => Promise<void>;
}

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

export function queueWorker<Q extends QueueId>(
  queue: Q,
  options: WorkerOptions,
  handle: (message: QueueMessage<Q>, record: SQSRecord, context: Context) => Promise<void>,
): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS);
  const schema = queueMessages[queue];
  const handleRecord = (record: SQSRecord, context: Context) =>
    withRequestLogger({ requestId: record.messageId, operation: options.operation }, async () => {
      const parsed = schema.safeParse(parseJson(record.body));
      if (!parsed.success) return log().error(`a message that is not a ${queue} message was dropped`, { messageId: record.messageId });
      try {
        await handle(parsed.data as QueueMessage<Q>, record, context);
      } catch (error) {
        if (!(error instanceof HandBack)) log().error('a message failed; the queue will hand it back', { queue, error: (error as Error).name });
        throw error;
      }
    });
  return async (event, context) => {
    await options.before?.();
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, context), processor, {
      context,
      throwOnFullBatchFailure: false,
      processInParallel: options.parallel ?? false,
    });
  };
}
