import { queueWorker } from '../../../shared/queue/worker.ts';
import { endAbandonedJob } from '../../use-cases/jobs/run-job.ts';
import { declaration } from './declaration.ts';

/** The job dead-letter queue's consumer: a job the queue gave up on ends `failed`, with its last reason and a webhook (a launch undone first). */
export const handler = queueWorker('Jobs', { operation: declaration.operation }, (ref, _record, context) => endAbandonedJob(ref, context));
