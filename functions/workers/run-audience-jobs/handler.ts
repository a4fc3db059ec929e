import { queueWorker } from '../../../shared/queue/worker.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { runAudienceJob } from '../../use-cases/run-audience-job.ts';
import { declaration } from './declaration.ts';

/**
 * The audience-job worker (one message a time): each message runs its job from the checkpoint. A run
 * that fails in a way worth retrying throws, so the queue hands it back after its visibility timeout,
 * and to the dead-letter queue after its last attempt.
 */
export const handler = queueWorker('AudienceJobs', { operation: declaration.operation, before: loadAppCredentials }, (ref, _record, context) =>
  runAudienceJob(ref, context),
);
