import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'send_conversions',
  method: 'POST',
  path: '/conversions/send',
  entry: handlerBeside(import.meta.url),
  writes: true,
  // validateOnly asks the search-ads platform with its own dry run
  callsPlatforms: true,
  // the planned events (hashes only) are staged for the job
  usesUploadBucket: true,
  sendsTo: ['Jobs'],
  accepted: true,
  memoryMb: 1024,
  audit: {
    action: 'conversions_job.started',
    target: (_input, result) => ({ type: 'conversions_job', id: result?.jobId ?? 'unknown' }),
    // counts only: never a value of the person
    changes: (input) => ({ events: { to: input.events.length } }),
  },
};
