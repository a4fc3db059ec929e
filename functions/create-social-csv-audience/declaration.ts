import { CSV_UPLOAD_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_social_csv_audience',
  method: 'POST',
  path: '/social/create_social_csv_audience',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  ...CSV_UPLOAD_FUNCTION,
  sendsTo: ['AudienceJobs'], // an upload's list goes to the audience-job worker
};
