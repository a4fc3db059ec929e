import { queueWorker } from '../../../shared/queue/worker.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { runJob } from '../../use-cases/jobs/run-job.ts';
import { declaration } from './declaration.ts';

/**
 * The job worker (one message a time): each message runs its job from the checkpoint. A run
 * that fails in a way worth retrying throws, so the queue hands it back after its visibility timeout,
 * and to the dead-letter queue after its last attempt.
 */
export const handler = queueWorker('Jobs', { operation: declaration.operation, before: loadAppCredentials }, (ref, _record, context) => runJob(ref, context));
