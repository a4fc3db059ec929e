import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

/** The social platform's lead webhooks: each signed body stored, then processed from a queue. */
export const declaration: FunctionDeclaration = {
  operation: 'receive_social_platform_webhook',
  method: 'POST',
  path: '/platform-webhooks/social',
  entry: handlerBeside(import.meta.url),
  inbound: 'social',
  readsAppCredentials: true, // the app secret that signs
  writes: true,
  usesUploadBucket: true, // a body too large for one table item is kept in the bucket
  sendsTo: ['PlatformEvents'],
  memoryMb: 512,
};
