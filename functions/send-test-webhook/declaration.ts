import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'send_test_webhook',
  method: 'POST',
  path: '/tenant/send_test_webhook',
  entry: handlerBeside(import.meta.url),
  writes: true,
  limited: true, // 10 test events a minute per tenant
  audit: {
    action: 'webhook.test_sent',
    target: () => ({ type: 'settings', id: 'webhook' }),
    changes: (_input, result) => (result ? { event: { to: result.event.id } } : undefined),
  },
  sendsTo: ['WebhookDeliveries'],
};
