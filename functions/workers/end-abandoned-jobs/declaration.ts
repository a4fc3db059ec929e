import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'end_abandoned_jobs',
  entry: handlerBeside(import.meta.url),
  consumesDeadLettersOf: 'Jobs',
  usesUploadBucket: true,
  writes: true,
  sendsTo: ['WebhookDeliveries'],
};
