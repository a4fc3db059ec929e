import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_leads',
  entry: handlerBeside(import.meta.url),
  schedule: 'leadsSweep',
  callsPlatforms: true,
  sendsTo: ['WebhookDeliveries', 'PlatformEvents'],
  writes: true,
  timeoutSeconds: 900,
};
