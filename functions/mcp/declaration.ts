import { GENERATED_OPENAPI_DOCUMENT, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { OPENAPI_FILE_NAME } from '../../shared/docs/reference-files.ts';

/**
 * POST /mcp: the API as a Model Context Protocol server for AI agents (docs/agents.md). Its tools are
 * read from the OpenAPI document beside its code; a tool call goes to its route over HTTP with the
 * caller's key. It writes the agent actions (confirmations) and seals what they hold.
 */
export const declaration: FunctionDeclaration = {
  operation: 'mcp',
  method: 'POST',
  path: '/mcp',
  entry: handlerBeside(import.meta.url),
  protocol: 'mcp',
  writes: true,
  sealsConnections: true,
  // the most an HTTP function has inside the gateway's limit: a tool call waits for its route (forward.ts)
  timeoutSeconds: 28,
  bundledFiles: { [OPENAPI_FILE_NAME]: GENERATED_OPENAPI_DOCUMENT },
};
