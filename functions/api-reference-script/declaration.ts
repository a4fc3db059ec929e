import { REFERENCE_SCRIPT_FILE, REFERENCE_SCRIPT_MODULE, REFERENCE_SCRIPT_PATH } from '../../shared/docs/reference-files.ts';
import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_api_reference_script',
  method: 'GET',
  path: REFERENCE_SCRIPT_PATH,
  entry: handlerBeside(import.meta.url),
  public: true,
  bundledFiles: { [REFERENCE_SCRIPT_FILE]: REFERENCE_SCRIPT_MODULE },
};
