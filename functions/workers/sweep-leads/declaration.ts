import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'sweep_leads',
  entry: handlerBeside(import.meta.url),
  schedule: 'leadsSweep',
  sendsTo: ['PlatformEvents'], // one message per subscription: the worker of platform events sweeps it
  writes: true, // the store modules it reads through also write (subscriptions, bodies): their commands are in its bundle
  timeoutSeconds: 900, // a message a subscription: a million of them take minutes to queue
};
