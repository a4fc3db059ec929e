import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_flows',
  entry: handlerBeside(import.meta.url),
  schedule: 'flowSweep',
  writes: true,
  sendsTo: ['WebhookDeliveries', 'PlatformEvents', 'ConversionDeliveries'],
};
