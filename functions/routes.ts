import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FunctionDeclaration } from '../shared/core/function-declaration.ts';
import { importModule } from '../shared/core/import-module.ts';
import { matchRoute } from '../shared/http/route-table.ts';
import type { DocumentedRoute } from '../shared/docs/openapi.ts';

/**
 * The route table, found, not kept: every folder of functions/ with a `declaration.ts` is one
 * operation (its handler, declaration, `api.ts` for the OpenAPI document, sample events), so adding an
 * operation is adding a folder. The local gateway serves this table, the CDK stack deploys it and the
 * OpenAPI document describes it. It is read from the folders at load (Node, never a function bundle:
 * the catch-all function gets the table as ROUTE_TABLE, the document function its document as a file).
 */
export type Route = FunctionDeclaration;

const functionsDir = fileURLToPath(new URL('./', import.meta.url));

/** The folders below `dir` (relative to functions/) that hold a declaration.ts, sorted. */
export function declarationFolders(dir = ''): string[] {
  const base = `${functionsDir}${dir}`;
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${base}${entry.name}/declaration.ts`))
    .map((entry) => `${dir}${entry.name}`)
    .sort();
}

const FALLBACK_FOLDER = 'route-not-found';

/** A module of an operation's folder, by its file URL (a plain specifier, so no bundler rewrites it). */
export const importFromFolder = <T>(folder: string, file: string): Promise<T> => importModule<T>(pathToFileURL(`${functionsDir}${folder}/${file}`).href);

async function load(folder: string): Promise<DocumentedRoute> {
  const { declaration } = await importFromFolder<{ declaration: Route }>(folder, 'declaration.ts');
  const api = existsSync(`${functionsDir}${folder}/api.ts`) ? (await importFromFolder<{ api: DocumentedRoute['api'] }>(folder, 'api.ts')).api : undefined;
  return { route: declaration, ...(api ? { api } : {}) };
}

/** Every operation with what its api.ts says of it, in folder order. */
export const documentedRoutes: readonly DocumentedRoute[] = await Promise.all(
  declarationFolders()
    .filter((folder) => folder !== FALLBACK_FOLDER)
    .map(load),
);
export const routes: readonly Route[] = documentedRoutes.map(({ route }) => route);
export const { declaration: fallbackRoute } = await importFromFolder<{ declaration: { operation: string; entry: string } }>(FALLBACK_FOLDER, 'declaration.ts');

export const findRoute = (method: string, path: string) => matchRoute(routes, method, path);
