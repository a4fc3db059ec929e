import { CSV_UPLOAD_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_searchads_csv_audience',
  method: 'POST',
  path: '/searchads/create_csv_audience',
  entry: handlerBeside(import.meta.url),
  platform: 'searchads',
  ...CSV_UPLOAD_FUNCTION,
  sendsTo: ['Jobs'], // the list goes to the job worker, in both forms
  audit: {
    action: () => 'audience_job.started',
    target: (input, result) => ({ type: 'audience_job', id: result?.jobId ?? input.uploadId ?? '' }),
    changes: (input, result) => ({
      mode: { to: input.mode },
      ...(result?.audienceId ? { audienceId: { to: result.audienceId } } : {}),
      consent: { to: input.consent },
    }),
  },
};
