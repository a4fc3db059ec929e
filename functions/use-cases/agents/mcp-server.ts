import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { listedTools } from '../../../shared/agents/tool-catalog.ts';
import type { AgentCall } from './agent-call.ts';
import { callTool } from './call-tool.ts';

/**
 * One MCP request on the SDK's Streamable HTTP transport, stateless (a fresh server and transport per
 * request, JSON answers): initialize, ping, tools/list and tools/call (docs/agents.md). The SDK answers
 * the protocol (versions, unknown methods, malformed messages); the tools are ours.
 */
const SERVER_INFO = { name: 'ad-campaign-api', title: 'Ad campaign management API', version: '1.0.0' };
const INSTRUCTIONS =
  'One tool per operation of the ad campaign management API, across the social, search-ads and professional platforms. ' +
  'Read tools answer at once. Write tools follow the tenant’s agents.writes setting: under `confirm` (the default) a write changes nothing and answers a preview and a confirmationToken; show the preview to the person and, with their approval, call confirm_action with the token (valid 10 minutes). ' +
  'A refusal is a tool result with isError and a CODE: message line; correct the arguments it names and call again.';

export interface McpAnswer {
  response: Response;
  /** the client's name and version, when the request was its initialize */
  initializedBy?: { name?: string; version?: string };
}

export async function answerMcp(request: Request, parsedBody: unknown, call: AgentCall): Promise<McpAnswer> {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools(call.catalog(), call.mode) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => callTool(call, params.name, params.arguments ?? {}));
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody });
    const client = server.getClientVersion();
    return { response, ...(client ? { initializedBy: client } : {}) };
  } finally {
    await server.close();
  }
}
