import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_jobs',
  entry: handlerBeside(import.meta.url),
  schedule: 'jobSweep',
  scansTable: true,
  writes: true,
  sendsTo: ['Jobs'],
};
