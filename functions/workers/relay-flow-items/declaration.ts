import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';
import { RELAY_FLAG } from '../../../shared/store/flow-items.ts';

export const declaration: WorkerDeclaration = {
  operation: 'relay_flow_items',
  entry: handlerBeside(import.meta.url),
  consumesStream: { flag: RELAY_FLAG },
  writes: true,
  sendsTo: ['WebhookDeliveries', 'PlatformEvents', 'ConversionDeliveries'],
};
