import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'export_report',
  method: 'POST',
  path: '/reports/export_report',
  entry: handlerBeside(import.meta.url),
  writes: true,
  // the export is the job worker's: the request only checks it and queues it
  sendsTo: ['Jobs'],
  accepted: true,
  audit: {
    action: 'report_export.started',
    target: (_input, result) => ({ type: 'report_export_job', id: result?.jobId ?? 'unknown' }),
    changes: (input) => ({ platform: { to: input.platform }, level: { to: input.level }, format: { to: input.format } }),
  },
};
