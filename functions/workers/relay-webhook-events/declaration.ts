import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { PENDING_PK, RELAY_FLAG } from '../../../shared/store/webhook-events.ts';

export const declaration: WorkerDeclaration = {
  operation: 'relay_webhook_events',
  entry: handlerBeside(import.meta.url),
  consumesStream: { pk: PENDING_PK, flag: RELAY_FLAG },
  writes: true,
  sendsTo: ['WebhookDeliveries'],
};
