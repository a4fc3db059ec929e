import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

/** The professional network's validation of our webhook URL: the challenge code with its HMAC. */
export const declaration: FunctionDeclaration = {
  operation: 'validate_professional_platform_webhook',
  method: 'GET',
  path: '/platform-webhooks/professional',
  entry: handlerBeside(import.meta.url),
  inbound: 'professional',
  readsAppCredentials: true, // the app secret that signs
};
