import { CSV_NODE_OPTIONS, handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { jobQueue } from '../../../shared/core/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'run_jobs',
  entry: handlerBeside(import.meta.url),
  consumes: 'Jobs',
  callsPlatforms: true, // social or professional, as the job says; it marks a refused grant at once
  usesUploadBucket: true,
  sendsTo: ['Jobs', 'WebhookDeliveries'], // its own continuation; the job's end
  writes: true,
  // chosen from `npm run bench` (bench/README.md): the work is CPU-bound on one thread, and 1,769 MB
  // is one whole vCPU; the process needs about 140 MB whatever the file's size
  memoryMb: 1769,
  timeoutSeconds: jobQueue.consumerTimeoutSeconds,
  // the live heap is the modules and the rows being hashed (about 30 MB at the peak: a batch waits as
  // JSON bytes outside the heap, however wide its rows): a bound keeps V8 from growing the old space
  // with the file, and one this small has past batches' garbage collected before it adds to the peak
  nodeOptions: `${CSV_NODE_OPTIONS} --max-old-space-size=64`,
  // glibc otherwise keeps freed batch buffers in per-thread arenas and raises its mmap threshold to
  // the largest buffer freed, so RSS creeps up batch after batch (bench/README.md measures both)
  processEnvironment: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
};
