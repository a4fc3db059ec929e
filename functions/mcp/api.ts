import { day } from '../../shared/schemas/example-dates.ts';
import type { ProtocolRouteDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of /mcp: a JSON-RPC endpoint, not an envelope operation (docs/agents.md). */
export const api: ProtocolRouteDoc = {
  summary: 'The API as an MCP server for AI agents',
  description:
    'The Model Context Protocol over Streamable HTTP, stateless, JSON answers (protocol versions 2025-06-18 and 2025-11-25): `initialize`, `ping`, `tools/list` and `tools/call`. One tool per operation of this document (its operationId, summary, description and JSON request schema, with `x-mcp-annotations`), and `confirm_action`. Under the tenant’s `agents.writes: confirm` (the default) a write tool changes nothing and answers `{preview, confirmationToken, expiresAt}`; `confirm_action` applies it once. A refusal is a tool result with `isError: true`; an unknown tool or method a JSON-RPC error. The key as `x-api-key` or `Authorization: Bearer`; without one, 401 before any JSON-RPC. A browser `Origin` not in the tenant’s `agents.allowedOrigins` is 403. The answer to `initialize` carries `Mcp-Session-Id`; send it back on later requests.',
  tag: 'Agents',
  requestExample: {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'social_update_campaign_status', arguments: { userId: 'demo-user', campaignId: '120210987000000100', status: 'PAUSED' } },
  },
  responseExample: {
    jsonrpc: '2.0',
    id: 3,
    result: {
      content: [{ type: 'text', text: '{"preview":{…},"confirmationToken":"mcpc_3-pLt8iE0vhjCXsY7k6UZmRP","expiresAt":"…"}' }],
      structuredContent: {
        preview: {
          tool: 'social_update_campaign_status',
          arguments: { userId: 'demo-user', campaignId: '120210987000000100', status: 'PAUSED' },
          destructive: true,
        },
        confirmationToken: 'mcpc_3-pLt8iE0vhjCXsY7k6UZmRP',
        expiresAt: `${day(0)}T10:10:00.000Z`,
      },
    },
  },
};
