import { CSV_UPLOAD_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_csv_audience',
  method: 'POST',
  path: '/professional/create_csv_audience',
  entry: handlerBeside(import.meta.url),
  platform: 'professional',
  ...CSV_UPLOAD_FUNCTION,
  sendsTo: ['Jobs'], // an upload's list goes to the job worker
  audit: {
    action: (input) => ('uploadId' in input ? 'audience_job.started' : 'audience.created'),
    target: (input, result) =>
      'uploadId' in input ? { type: 'audience_job', id: result?.jobId ?? input.uploadId } : { type: 'audience', id: result?.audience?.csvFileId ?? '' },
    changes: (input) => ({ type: { to: input.type }, ...(input.audienceName ? { name: { to: input.audienceName } } : {}) }),
  },
};
