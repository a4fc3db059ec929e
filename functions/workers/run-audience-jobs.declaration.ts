import { CSV_NODE_OPTIONS, handlerBeside, type WorkerDeclaration } from '../../shared/function-declaration.ts';
import { audienceJobQueue } from '../../shared/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'run_audience_jobs',
  entry: handlerBeside(import.meta.url),
  consumes: 'AudienceJobs',
  callsPlatforms: true, // social or professional, as the job says; it marks a refused grant at once
  usesUploadBucket: true,
  sendsTo: ['AudienceJobs', 'WebhookDeliveries'], // its own continuation; the job's end
  writes: true,
  // chosen from `npm run bench`: the hashing is CPU-bound, and Lambda's CPU grows with memory
  memoryMb: 1769,
  timeoutSeconds: audienceJobQueue.consumerTimeoutSeconds,
  nodeOptions: CSV_NODE_OPTIONS,
};
