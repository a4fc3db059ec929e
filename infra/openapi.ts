import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../shared/docs/openapi.ts';
import { documentedRoutes } from '../functions/routes.ts';

/** `npm run openapi [-- <file>] [--server <url>]`: writes the OpenAPI 3.1 document (default openapi.json). */
const args = process.argv.slice(2);
const serverIndex = args.indexOf('--server');
const serverUrl = serverIndex >= 0 ? args[serverIndex + 1] : undefined;
const file = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--server') ?? 'openapi.json';
writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(documentedRoutes, serverUrl), null, 2)}\n`);
console.log(`wrote ${file}`);
