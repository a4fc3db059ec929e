import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'subscribe_leads',
  method: 'POST',
  path: '/leads/subscribe',
  entry: handlerBeside(import.meta.url),
  unchangedByRepeat: true,
  callsPlatforms: true,
  writes: true,
  audit: {
    action: 'leads.subscribed',
    target: (input, result) => ({ type: 'lead_subscription', id: `${input.platform}:${result?.subscriptions?.[0]?.target ?? ''}` }),
  },
};
