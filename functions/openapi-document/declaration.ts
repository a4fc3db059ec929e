import { GENERATED_OPENAPI_DOCUMENT, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { OPENAPI_FILE_NAME } from '../../shared/docs/reference-files.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_openapi_document',
  method: 'GET',
  path: '/openapi.json',
  entry: handlerBeside(import.meta.url),
  public: true,
  bundledFiles: { [OPENAPI_FILE_NAME]: GENERATED_OPENAPI_DOCUMENT },
};
