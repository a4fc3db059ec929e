import type { AgentWriteMode } from '../schemas/tenant-values.ts';

/**
 * The MCP tools, read from the OpenAPI document (docs/agents.md): one per operation that takes a JSON
 * body and an API key, so never a second list. The name is the operationId, the title the summary, the
 * description the operation's, the input schema its JSON request body (JSON Schema 2020-12), the
 * annotations the document's `x-mcp-annotations` (from the declarations). Connect pages, platform
 * webhooks and the reference are not in it: no client calls them with a key.
 */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const CONFIRM_TOOL = 'confirm_action';

type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
}

/** A tool and how its call reaches its route. */
export interface OperationTool {
  tool: Tool;
  path: string;
  readOnly: boolean;
  /** the request takes `validateOnly`: the preview of a write is the route's own dry run */
  dryRun: boolean;
  /** the route honours Idempotency-Key: a confirmed write is sent with one, so a resend is never a second write */
  idempotencyKey: boolean;
}

interface DocumentOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Array<{ $ref?: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  'x-mcp-annotations'?: ToolAnnotations;
}

/**
 * The document writes a field that must never be sent as the schema `false`; the MCP SDK's clients take
 * only object schemas for properties, so here it is `{not: {}}`, which means the same.
 */
function withoutBooleanSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutBooleanSchemas);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, schema === false ? { not: {} } : withoutBooleanSchemas(schema)]))
        : withoutBooleanSchemas(value),
    ]),
  );
}

/** A schema an MCP client accepts as a tool's input or output: an object at the top, in the 2020-12 dialect. */
const asObjectSchema = (schema: JsonSchema): JsonSchema & { type: 'object' } => ({
  $schema: JSON_SCHEMA_DIALECT,
  ...(withoutBooleanSchemas(schema) as JsonSchema),
  type: 'object',
});

/** The `results` of a read's success envelope: what structuredContent carries. */
function resultsSchema(operation: DocumentOperation): JsonSchema | undefined {
  const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
  const success = ((schema?.anyOf as JsonSchema[] | undefined)?.[0] ?? schema) as { properties?: { results?: JsonSchema } } | undefined;
  return success?.properties?.results;
}

export function operationTools(document: { paths?: Record<string, Record<string, DocumentOperation>> }): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const hints = operation['x-mcp-annotations'];
      const input = operation.requestBody?.content?.['application/json']?.schema;
      if (!hints || !input || !operation.operationId) continue;
      const readOnly = hints.readOnlyHint === true;
      const output = readOnly ? resultsSchema(operation) : undefined;
      tools.push({
        tool: {
          name: operation.operationId,
          ...(operation.summary ? { title: operation.summary } : {}),
          description: operation.description ?? operation.summary ?? operation.operationId,
          inputSchema: asObjectSchema(input),
          // a write under `confirm` answers a preview, not its result: it declares no output schema
          ...(output ? { outputSchema: asObjectSchema(output) } : {}),
          annotations: { ...(operation.summary ? { title: operation.summary } : {}), ...hints },
        },
        path,
        readOnly,
        dryRun: Boolean((input.properties as JsonSchema | undefined)?.validateOnly),
        idempotencyKey: Boolean(operation.parameters?.some((parameter) => parameter.$ref?.endsWith('/IdempotencyKey'))),
      });
    }
  }
  return tools.sort((a, b) => a.tool.name.localeCompare(b.tool.name));
}

/** The one tool that is no operation: it applies a write an agent previewed. */
export const confirmTool: Tool = {
  name: CONFIRM_TOOL,
  title: 'Apply a previewed write',
  description:
    'Applies, exactly once, the write a tool previewed under the tenant’s `agents.writes: confirm` setting: send the `confirmationToken` it answered (valid 10 minutes). A repeat answers the first result and writes nothing again. Show the preview to the person and confirm only with their approval.',
  inputSchema: asObjectSchema({
    properties: { confirmationToken: { type: 'string', minLength: 1, maxLength: 200, description: 'The token a write tool answered with its preview.' } },
    required: ['confirmationToken'],
    additionalProperties: false,
  }),
  annotations: { title: 'Apply a previewed write', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
};

/** What tools/list answers under a tenant's mode: `off` offers the reads only, `confirm` adds confirm_action. */
export function listedTools(catalog: readonly OperationTool[], mode: AgentWriteMode): Tool[] {
  const offered = catalog.filter((entry) => mode !== 'off' || entry.readOnly).map((entry) => entry.tool);
  return mode === 'confirm' ? [...offered, confirmTool] : offered;
}
