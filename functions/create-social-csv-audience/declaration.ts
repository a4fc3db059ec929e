import { CSV_UPLOAD_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_social_csv_audience',
  method: 'POST',
  path: '/social/create_social_csv_audience',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  ...CSV_UPLOAD_FUNCTION,
  sendsTo: ['Jobs'], // an upload's list goes to the job worker
  audit: {
    // a list from a direct upload starts a job; one in the body creates or changes the audience itself
    action: (input) => ('uploadId' in input ? 'audience_job.started' : input.mode === 'create' ? 'audience.created' : 'audience.updated'),
    target: (input, result) =>
      'uploadId' in input
        ? { type: 'audience_job', id: result?.jobId ?? input.uploadId }
        : { type: 'audience', id: result?.audienceId ?? input.audienceId ?? '' },
    changes: (input, result) => ({
      ...(input.mode ? { mode: { to: input.mode } } : {}),
      ...(result && 'num_received' in result && !('jobId' in result) ? { rows: { to: result.num_received } } : {}),
      ...(result && 'jobId' in result && result.audienceId ? { audienceId: { to: result.audienceId } } : {}),
    }),
  },
};
