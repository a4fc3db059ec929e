import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_webhook_events',
  entry: handlerBeside(import.meta.url),
  schedule: 'webhookSweep',
  writes: true,
  sendsTo: ['WebhookDeliveries'],
};
