import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A request header by lower-case name (API Gateway lowercases them; direct invocations may not). */
export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The header /mcp sends a write with: the id of the agent action whose client the route's audit records (docs/agents.md). */
export const AGENT_ACTION_HEADER = 'x-agent-action';
