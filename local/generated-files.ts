import { writeFileSync } from 'node:fs';
import { documentedRoutes } from '../functions/routes.ts';
import { config } from '../shared/core/config.ts';
import { GENERATED_OPENAPI_DOCUMENT, type FunctionDeclaration } from '../shared/core/function-declaration.ts';
import { buildOpenApiDocument } from '../shared/docs/openapi.ts';

let documentWritten: Promise<void> | undefined;

/**
 * The generated files a function reads beside its code (its declaration's `bundledFiles`: the OpenAPI
 * document), made locally before the function is first loaded, as the deploy's bundling makes them beside
 * its bundle (infra/bundling.ts). On demand, not at every start: building the document costs about 0.27 s
 * of CPU (measured), and most starts, every test's own stack among them, never serve it. Made once per
 * process, so a restart on a data folder never serves the document an older start wrote.
 */
export function prepareBundledFiles(route: Pick<FunctionDeclaration, 'bundledFiles'>): Promise<void> {
  if (!Object.values(route.bundledFiles ?? {}).includes(GENERATED_OPENAPI_DOCUMENT)) return Promise.resolve();
  documentWritten ??= Promise.resolve()
    .then(() => writeFileSync(config().OPENAPI_DOCUMENT_FILE as string, JSON.stringify(buildOpenApiDocument(documentedRoutes))))
    .catch((error: unknown) => {
      documentWritten = undefined;
      throw error;
    });
  return documentWritten;
}
