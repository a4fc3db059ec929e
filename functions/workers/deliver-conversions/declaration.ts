import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { conversionQueue } from '../../../shared/core/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'deliver_conversions',
  entry: handlerBeside(import.meta.url),
  consumes: 'ConversionDeliveries',
  callsPlatforms: true, // sends with the user's grant, on the social or the professional platform
  sendsTo: ['WebhookDeliveries'], // conversion.delivered, .rejected, .unknown
  writes: true,
  timeoutSeconds: conversionQueue.consumerTimeoutSeconds,
};
