import { handlerBeside, type WorkerDeclaration } from '../../../shared/core/function-declaration.ts';

export const declaration: WorkerDeclaration = {
  operation: 'refresh_connections',
  entry: handlerBeside(import.meta.url),
  schedule: 'connectionLifecycle',
  callsPlatforms: true,
  scansTable: true,
  timeoutSeconds: 900,
};
