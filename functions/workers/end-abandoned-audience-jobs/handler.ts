import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { parseJobMessage } from '../../../shared/jobs/job-queue.ts';
import { endAbandonedJob } from '../../use-cases/run-audience-job.ts';
import { declaration } from './declaration.ts';

/** The audience-job dead-letter queue's consumer: a job the queue gave up on ends `failed`, with its last reason and a webhook. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    await withRequestLogger({ requestId: record.messageId, operation: declaration.operation }, async () => {
      const ref = parseJobMessage(record.body);
      if (!ref) return log().error('a dead-lettered message that names no job was dropped', { messageId: record.messageId });
      try {
        await endAbandonedJob(ref);
      } catch (error) {
        log().error('could not end an abandoned audience job; the queue will hand it back', { error: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
  }
  return { batchItemFailures };
}
