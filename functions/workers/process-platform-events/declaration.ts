import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { platformEventQueue } from '../../../shared/core/queues.ts';

export const declaration: WorkerDeclaration = {
  operation: 'process_platform_events',
  entry: handlerBeside(import.meta.url),
  consumes: 'PlatformEvents',
  callsPlatforms: true, // reads each lead with the subscribed user's grant
  sendsTo: ['WebhookDeliveries'], // lead.received, leads.access_missing
  writes: true,
  usesUploadBucket: true, // a large body is read back from the bucket
  timeoutSeconds: platformEventQueue.consumerTimeoutSeconds,
};
