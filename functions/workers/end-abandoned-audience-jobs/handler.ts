import { queueWorker } from '../../../shared/queue/worker.ts';
import { endAbandonedJob } from '../../use-cases/run-audience-job.ts';
import { declaration } from './declaration.ts';

/** The audience-job dead-letter queue's consumer: a job the queue gave up on ends `failed`, with its last reason and a webhook (a launch undone first). */
export const handler = queueWorker('AudienceJobs', { operation: declaration.operation }, (ref, _record, context) => endAbandonedJob(ref, context));
