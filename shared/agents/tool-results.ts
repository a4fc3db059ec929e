/**
 * A route's HTTP answer as an MCP tool result (docs/agents.md): a success carries the envelope's
 * `results` as structuredContent and as JSON text; every refusal (HTTP 4xx/5xx, or a 200 whose
 * `results.success` is false) is `isError: true` with the envelope's code and message, so that an agent
 * reads why and can correct itself. Never a JSON-RPC error: those are for the protocol.
 */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Envelope {
  success?: boolean;
  results?: Record<string, unknown> & { success?: boolean; code?: string; error?: string };
}

export const toolSuccess = (results: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(results) }],
  structuredContent: results,
});

/** A refusal the agent can act on: `CODE: message`, then the details (the fields that did not fit, the values allowed). */
export function toolError(code: string, message: string, details?: Record<string, unknown>): ToolResult {
  const facts = details && Object.keys(details).length > 0 ? `\n${JSON.stringify(details)}` : '';
  return { content: [{ type: 'text', text: `${code}: ${message}${facts}` }], isError: true };
}

export function toolResultOf(status: number, body: unknown): ToolResult {
  const envelope = (body ?? {}) as Envelope;
  const results = envelope.results;
  if (status < 300 && envelope.success === true && results && results.success !== false) return toolSuccess(results);
  if (!results) return toolError('INTERNAL', `The operation answered HTTP ${status} without an envelope.`);
  const { success: _success, code, error, ...details } = results;
  return toolError(code ?? 'INTERNAL', error ?? `The operation answered HTTP ${status}.`, details);
}

/** The code of a refusal (the text's first word), or undefined for a success. */
export const refusalCode = (result: ToolResult): string | undefined => (result.isError ? /^([A-Z_]+):/.exec(result.content[0]?.text ?? '')?.[1] : undefined);
