import type { WorkerDeclaration } from '../../shared/core/function-declaration.ts';
import { declarationFolders, importFromFolder } from '../routes.ts';

/**
 * The functions that answer a queue, a schedule or the table's stream, found as the routes are: every
 * folder of functions/workers/ with a declaration.ts. The CDK stack and the local stack wire them from here.
 */
export const workers: readonly WorkerDeclaration[] = await Promise.all(
  declarationFolders('workers/').map(async (folder) => (await importFromFolder<{ declaration: WorkerDeclaration }>(folder, 'declaration.ts')).declaration),
);
