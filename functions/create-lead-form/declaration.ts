import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_lead_form',
  method: 'POST',
  path: '/social/create_lead_form',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  writes: true,
  idempotent: true,
  audit: {
    action: 'lead_form.created',
    target: (_input, result) => ({ type: 'lead_form', id: result?.leadFormId ?? '' }),
    changes: (input) => ({ name: { to: input.leadsFormName } }),
  },
};
