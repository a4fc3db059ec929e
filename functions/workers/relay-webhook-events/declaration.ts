import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { RELAY_FLAG } from '../../../shared/store/webhook-events.ts';
import { keys } from '../../../shared/store/keys.ts';

export const declaration: WorkerDeclaration = {
  operation: 'relay_webhook_events',
  entry: handlerBeside(import.meta.url),
  consumesStream: { pk: keys.pendingWebhooksPk, flag: RELAY_FLAG },
  writes: true,
  sendsTo: ['WebhookDeliveries'],
};
