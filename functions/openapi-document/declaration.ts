import { GENERATED_OPENAPI_DOCUMENT, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

/** The document as generated when the routes are deployed: beside this function's code in the cloud (the local stack writes its own). */
export const OPENAPI_FILE_NAME = 'openapi.json';

export const declaration: FunctionDeclaration = {
  operation: 'get_openapi_document',
  method: 'GET',
  path: '/openapi.json',
  entry: handlerBeside(import.meta.url),
  public: true,
  bundledFiles: { [OPENAPI_FILE_NAME]: GENERATED_OPENAPI_DOCUMENT },
};
