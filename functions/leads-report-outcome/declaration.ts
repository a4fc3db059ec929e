import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'report_outcome',
  method: 'POST',
  path: '/leads/report_outcome',
  entry: handlerBeside(import.meta.url),
  writes: true,
  // the lead's values are opened to hash them, never stored or answered
  sealsConnections: true,
  sendsTo: ['ConversionDeliveries'],
  accepted: true,
  // the outcome's ids and how many events it queued; never a value of the person
  audit: {
    action: 'lead.outcome_reported',
    target: (input) => ({ type: 'lead', id: input.leadId }),
    changes: (input, result) => ({ stage: { to: input.stage }, events: { to: result?.eventIds?.length ?? 0 } }),
  },
};
