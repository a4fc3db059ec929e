import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'unsubscribe_leads',
  method: 'POST',
  path: '/leads/unsubscribe',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  callsPlatforms: true,
  writes: true,
  audit: {
    action: 'leads.unsubscribed',
    target: (input, result) => ({ type: 'lead_subscription', id: `${input.platform}:${result?.subscriptions?.[0]?.target ?? ''}` }),
  },
};
