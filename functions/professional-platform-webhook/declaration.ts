import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

/** The professional network's lead notifications: each signed body stored, then processed from a queue. */
export const declaration: FunctionDeclaration = {
  operation: 'receive_professional_platform_webhook',
  method: 'POST',
  path: '/platform-webhooks/professional',
  entry: handlerBeside(import.meta.url),
  inbound: 'professional',
  readsAppCredentials: true, // the app secret that signs
  writes: true,
  usesUploadBucket: true, // a body too large for one table item is kept in the bucket
  sendsTo: ['PlatformEvents'],
  memoryMb: 512,
};
