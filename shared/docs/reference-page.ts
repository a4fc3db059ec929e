import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { REFERENCE_SCRIPT_FILE, REFERENCE_SCRIPT_MODULE, REFERENCE_SCRIPT_PATH } from './reference-files.ts';

/*
 * The interactive reference at GET /docs: Scalar's standalone bundle, served by this service itself
 * (no CDN, no fonts or proxy from elsewhere), reading GET /openapi.json from the same origin.
 */

/** Only what the page loads itself: its script from here, the document from here, requests to here. */
export const REFERENCE_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  agent: { disabled: true },
  telemetry: false,
  showDeveloperTools: 'never',
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: 'apiKey' },
};

export const REFERENCE_PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Ad campaign management API: reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/openapi.json" data-configuration='${JSON.stringify(SCALAR_CONFIGURATION)}'></script>
    <script src="${REFERENCE_SCRIPT_PATH}"></script>
  </body>
</html>
`;

let script: { plain: Buffer; gzip: Buffer } | undefined;

/**
 * Scalar's bundle: from beside the deployed function, or from node_modules when the handler runs
 * from source (local stack, tests). Read and compressed once per container.
 */
export function referenceScript(): { plain: Buffer; gzip: Buffer } {
  if (!script) {
    const besideBundle = new URL(`./${REFERENCE_SCRIPT_FILE}`, import.meta.url);
    const path = existsSync(besideBundle) ? besideBundle : createRequire(import.meta.url).resolve(REFERENCE_SCRIPT_MODULE);
    const plain = readFileSync(path);
    script = { plain, gzip: gzipSync(plain) };
  }
  return script;
}
