import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { agentRefusals } from '../../../shared/agents/agent-refusals.ts';
import { argumentProblems } from '../../../shared/agents/argument-check.ts';
import { CONFIRM_TOOL, confirmTool, type OperationTool } from '../../../shared/agents/tool-catalog.ts';
import { type ToolResult, toolSuccess } from '../../../shared/agents/tool-results.ts';
import { clock } from '../../../shared/core/clock.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { createAgentAction, sealActionValue } from '../../../shared/store/agent-actions.ts';
import { type AgentCall, actionIdempotencyKey, CONFIRMATION_TOKEN_PREFIX, newActionId } from './agent-call.ts';
import { confirmAction } from './confirm-action.ts';
import { forwardToRoute } from './forward.ts';

/**
 * One tools/call (docs/agents.md): an unknown tool is a protocol error; arguments that do not fit are a
 * tool error naming each problem; a read goes to its route; a write follows the tenant's
 * `agents.writes`: refused under `off`, sent at once under `apply`, and under `confirm` answered with a
 * preview and a token that `confirm_action` applies once.
 */
const CONFIRMATION_MINUTES = 10;
/** what one store item holds with room to spare (DynamoDB's limit is 400 KB) */
const MAX_HELD_ARGUMENTS = 300_000;

export async function callTool(call: AgentCall, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  if (name === CONFIRM_TOOL) {
    if (call.mode === 'off') return agentRefusals.writesOff();
    const problems = argumentProblems(confirmTool, args);
    return problems.length > 0 ? agentRefusals.invalidArguments(problems) : confirmAction(call, String(args.confirmationToken));
  }
  const entry = call.catalog().find((candidate) => candidate.tool.name === name);
  if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const problems = argumentProblems(entry.tool, args);
  if (problems.length > 0) return agentRefusals.invalidArguments(problems);
  // a read, or a write's own dry run, changes nothing
  if (entry.readOnly || (entry.dryRun && args.validateOnly === true)) return forwardToRoute({ path: entry.path, apiKey: call.apiKey, body: args });
  if (call.mode === 'off') return agentRefusals.writesOff();
  if (call.mode === 'apply') return applyNow(call, entry, args);
  return preview(call, entry, args);
}

/** `apply`: the write goes at once, under an action that names the agent to the route's audit. */
async function applyNow(call: AgentCall, entry: OperationTool, args: Record<string, unknown>): Promise<ToolResult> {
  const actionId = newActionId();
  await createAgentAction({
    actionId,
    tenantId: call.tenantId,
    tool: entry.tool.name,
    client: call.client,
    state: 'applying',
    validUntil: new Date(clock.now() + CONFIRMATION_MINUTES * 60_000).toISOString(),
  });
  return forwardToRoute({
    path: entry.path,
    apiKey: call.apiKey,
    body: args,
    actionId,
    ...(entry.idempotencyKey ? { idempotencyKey: actionIdempotencyKey(actionId) } : {}),
  });
}

/** `confirm`: nothing changes; the answer is the dry run (where the operation has one) or the request as it would be sent, and a token. */
async function preview(call: AgentCall, entry: OperationTool, args: Record<string, unknown>): Promise<ToolResult> {
  let dryRun: Record<string, unknown> | undefined;
  if (entry.dryRun) {
    const answer = await forwardToRoute({ path: entry.path, apiKey: call.apiKey, body: { ...args, validateOnly: true } });
    if (answer.isError) return answer;
    dryRun = answer.structuredContent;
  }
  const actionId = newActionId();
  await loadAppCredentials(); // the key that seals the held arguments
  const sealedArguments = sealActionValue(call.tenantId, actionId, args);
  if (sealedArguments.length > MAX_HELD_ARGUMENTS) return agentRefusals.tooLargeToHold(sealedArguments.length);
  const expiresAt = new Date(clock.now() + CONFIRMATION_MINUTES * 60_000).toISOString();
  await createAgentAction({
    actionId,
    tenantId: call.tenantId,
    tool: entry.tool.name,
    client: call.client,
    state: 'pending',
    validUntil: expiresAt,
    sealedArguments,
  });
  return toolSuccess({
    preview: {
      tool: entry.tool.name,
      ...(entry.tool.title ? { title: entry.tool.title } : {}),
      arguments: args,
      ...(dryRun ? { dryRun } : {}),
      destructive: entry.tool.annotations.destructiveHint === true,
    },
    confirmationToken: `${CONFIRMATION_TOKEN_PREFIX}${actionId}`,
    expiresAt,
    next: `Nothing has changed yet. Show this preview to the person; with their approval, call ${CONFIRM_TOOL} with this confirmationToken before ${expiresAt}.`,
  });
}
