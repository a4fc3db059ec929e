import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_audience_jobs',
  entry: handlerBeside(import.meta.url),
  schedule: 'audienceJobSweep',
  scansTable: true,
  writes: true,
  sendsTo: ['AudienceJobs'],
};
