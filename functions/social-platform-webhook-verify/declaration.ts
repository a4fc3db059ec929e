import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

/** The social platform's verification of our webhook URL: the challenge echoed for our verify token. */
export const declaration: FunctionDeclaration = {
  operation: 'verify_social_platform_webhook',
  method: 'GET',
  path: '/platform-webhooks/social',
  entry: handlerBeside(import.meta.url),
  inbound: 'social',
  readsAppCredentials: true, // the app secret that signs
};
