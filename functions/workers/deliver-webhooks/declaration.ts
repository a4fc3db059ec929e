import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { webhookQueue } from '../../../shared/core/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'deliver_webhooks',
  entry: handlerBeside(import.meta.url),
  consumes: 'WebhookDeliveries',
  writes: true,
  sealsConnections: true, // opens the tenant's webhook secret to sign
  timeoutSeconds: webhookQueue.consumerTimeoutSeconds,
};
