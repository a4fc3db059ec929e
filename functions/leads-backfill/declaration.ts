import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'backfill_leads',
  method: 'POST',
  path: '/leads/backfill',
  entry: handlerBeside(import.meta.url),
  callsPlatforms: true,
  writes: true,
  idempotent: true,
  sendsTo: ['Jobs'],
  audit: {
    action: 'leads_backfill.started',
    target: (_input, result) => ({ type: 'leads_backfill_job', id: result?.jobId ?? 'unknown' }),
  },
};
