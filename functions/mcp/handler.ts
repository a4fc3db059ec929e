import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { clientOfSession, sessionIdOf } from '../../shared/agents/client-session.ts';
import { originAllowed } from '../../shared/agents/origins.ts';
import { type OperationTool, operationTools } from '../../shared/agents/tool-catalog.ts';
import { config } from '../../shared/core/config.ts';
import { log, withRequestLogger } from '../../shared/core/logger.ts';
import { readGeneratedDocument } from '../../shared/docs/reference-files.ts';
import { header } from '../../shared/http/headers.ts';
import { apiKeyOwners } from '../../shared/http/middleware/api-key-auth.ts';
import { requestIdOf } from '../../shared/http/middleware/tracing.ts';
import { storePorts } from '../../shared/http/request-ports.ts';
import { type HttpResponse, jsonResponse } from '../../shared/http/response.ts';
import { httpResponseOf, webRequestOf } from '../../shared/http/web-standard.ts';
import { DEFAULT_AGENT_SETTINGS, loadTenantSettings } from '../../shared/store/tenant-settings.ts';
import { answerMcp } from '../use-cases/agents/mcp-server.ts';
import { declaration } from './declaration.ts';

let catalog: readonly OperationTool[] | undefined;
const toolCatalog = () => (catalog ??= operationTools(readGeneratedDocument(import.meta.url)));
const ownerOf = apiKeyOwners(storePorts);

/** A refusal before any JSON-RPC is read: the JSON-RPC error shape, as the SDK's transport answers its own. */
const refusal = (status: number, message: string, headers: Record<string, string> = {}, code = -32000) =>
  jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);

const apiKeyOf = (event: APIGatewayProxyEventV2) => header(event, 'x-api-key') ?? /^Bearer +(\S+)$/i.exec(header(event, 'authorization') ?? '')?.[1];

function parsedBody(event: APIGatewayProxyEventV2): unknown {
  if (event.body === undefined) return undefined;
  try {
    return JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  } catch {
    return undefined; // the transport reads the body itself and answers a parse error
  }
}

async function answer(event: APIGatewayProxyEventV2): Promise<HttpResponse> {
  const apiKey = apiKeyOf(event);
  const owner = apiKey && apiKey.length <= 512 ? await ownerOf(apiKey) : null;
  if (!apiKey || !owner)
    return refusal(401, 'A valid API key is required: send it as x-api-key, or as Authorization: Bearer <key>.', { 'www-authenticate': 'Bearer' });
  const agents = (await loadTenantSettings(owner.tenantId)).agents ?? DEFAULT_AGENT_SETTINGS;
  if (!originAllowed(header(event, 'origin'), agents.allowedOrigins, config().MCP_ALLOW_LOOPBACK_ORIGINS))
    return refusal(403, 'This Origin may not call /mcp: add it to the tenant’s settings (agents.allowedOrigins).');
  const body = parsedBody(event);
  // the protocol's versions since 2025-06-18 have no batches; one request would otherwise fan out into any number of tool calls
  if (Array.isArray(body)) return refusal(400, 'JSON-RPC batches are not part of MCP 2025-06-18 and later: send one message a request.', {}, -32600);
  const { response, initializedBy } = await answerMcp(webRequestOf(event), body, {
    tenantId: owner.tenantId,
    apiKey,
    mode: agents.writes,
    client: clientOfSession(header(event, 'mcp-session-id')),
    catalog: toolCatalog,
  });
  // the client's name and version ride in the session id it sends back on every request (shared/agents/client-session.ts)
  return httpResponseOf(response, initializedBy && response.ok ? { 'mcp-session-id': sessionIdOf(initializedBy) } : {});
}

export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> {
  const requestId = requestIdOf(event, context);
  const response = await withRequestLogger({ requestId, operation: declaration.operation }, () =>
    answer(event).catch((error: unknown) => {
      log().error('mcp: request failed', { error: (error as Error).name, stack: (error as Error).stack?.split('\n').slice(0, 4).join(' | ') });
      return refusal(500, 'The service failed to answer; try again.');
    }),
  );
  response.headers['x-request-id'] = requestId;
  return response;
}
