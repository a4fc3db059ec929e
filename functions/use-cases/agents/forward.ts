import { config } from '../../../shared/core/config.ts';
import { log } from '../../../shared/core/logger.ts';
import { type ToolResult, toolResultOf } from '../../../shared/agents/tool-results.ts';
import { AGENT_ACTION_HEADER } from '../../../shared/http/headers.ts';

/**
 * A tool call goes to its route as the client's own HTTP call would, with the caller's API key, so it
 * passes the same handler and middleware (validation, guards, idempotency, rate limits, audit). A write
 * names its agent action, which the route's audit records as the origin (docs/agents.md).
 */
/** inside this function's own 28 s; a route that takes longer (a CSV audience near its limit) is a lost answer */
const FORWARD_TIMEOUT_MS = 26_000;

export interface Forwarded {
  path: string;
  apiKey: string;
  body: unknown;
  actionId?: string;
  idempotencyKey?: string;
}

/** The lost answer of a write: it may have been made, so it is never sent again blind. */
export class AnswerLost extends Error {
  override name = 'AnswerLost';
}

export async function forwardToRoute(call: Forwarded): Promise<ToolResult> {
  let response: Response;
  try {
    response = await fetch(`${config().PUBLIC_BASE_URL}${call.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': call.apiKey,
        'user-agent': 'ad-campaign-api-mcp',
        ...(call.actionId ? { [AGENT_ACTION_HEADER]: call.actionId } : {}),
        ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
      },
      body: JSON.stringify(call.body),
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
  } catch (error) {
    log().warn('mcp: a tool call got no answer from its route', { path: call.path, error: (error as Error).name });
    throw new AnswerLost(`no answer from ${call.path}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return toolResultOf(response.status, body);
}
