import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { parseJobMessage } from '../../../shared/jobs/job-queue.ts';
import { runAudienceJob } from '../../use-cases/run-audience-job.ts';
import { declaration } from './declaration.ts';

/**
 * The audience-job worker (SQS, one message a time, partial batch responses): each message runs its
 * job from the checkpoint. A run that fails in a way worth retrying is reported failed, so the queue
 * hands it back after its visibility timeout, and to the dead-letter queue after its last attempt.
 */
export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  await loadAppCredentials();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    await withRequestLogger({ requestId: record.messageId, operation: declaration.operation }, async () => {
      const ref = parseJobMessage(record.body);
      if (!ref) return log().error('an audience-job message that names no job was dropped', { messageId: record.messageId });
      try {
        await runAudienceJob(ref, context);
      } catch (error) {
        log().error('audience job run failed; the queue will hand it back', { error: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    });
  }
  return { batchItemFailures };
}
