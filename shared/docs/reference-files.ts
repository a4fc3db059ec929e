import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { config } from '../core/config.ts';

/** Where the reference page's renderer is served, and where the CDK stack puts it beside its function. */
export const REFERENCE_SCRIPT_PATH = '/docs/scalar-api-reference.js';
export const REFERENCE_SCRIPT_FILE = 'scalar-api-reference.js';
export const REFERENCE_SCRIPT_MODULE = '@scalar/api-reference/browser/standalone.js';

/** The OpenAPI document as generated when the routes are deployed: beside a function's code in the cloud; the local stack writes its own. */
export const OPENAPI_FILE_NAME = 'openapi.json';

/** The generated document, read from where it was put for the function whose module is at `moduleUrl`. */
export function readGeneratedDocument(moduleUrl: string): Record<string, unknown> {
  const file = config().OPENAPI_DOCUMENT_FILE ?? fileURLToPath(new URL(`./${OPENAPI_FILE_NAME}`, moduleUrl));
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}
