import { agentRefusals } from '../../../shared/agents/agent-refusals.ts';
import { refusalCode, type ToolResult } from '../../../shared/agents/tool-results.ts';
import { clock } from '../../../shared/core/clock.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import {
  type AgentAction,
  claimAgentAction,
  findAgentAction,
  finishAgentAction,
  openActionValue,
  sealActionValue,
} from '../../../shared/store/agent-actions.ts';
import { type AgentCall, actionIdempotencyKey, CONFIRMATION_TOKEN_PREFIX } from './agent-call.ts';
import { AnswerLost, forwardToRoute } from './forward.ts';

/**
 * `confirm_action`: the write a preview held is applied exactly once (docs/agents.md). The token names
 * an action of the caller's tenant; claiming it (pending → applying) is one conditional write, so of two
 * confirmations only one sends. Its answer is kept: a repeat answers it again. A write whose answer was
 * lost stays `applying`: sent again only where the route honours Idempotency-Key (the same key, so the
 * route replays rather than writes), else answered as an unknown outcome, never resent blind.
 */
export async function confirmAction(call: AgentCall, token: string): Promise<ToolResult> {
  const actionId = token.startsWith(CONFIRMATION_TOKEN_PREFIX) ? token.slice(CONFIRMATION_TOKEN_PREFIX.length) : '';
  if (!/^[\w-]{16,64}$/.test(actionId)) return agentRefusals.unknownConfirmation();
  const action = await findAgentAction(call.tenantId, actionId);
  if (!action?.sealedArguments) return agentRefusals.unknownConfirmation();
  await loadAppCredentials(); // the key that opens what the action holds
  if (action.state === 'done' && action.sealedAnswer) return openActionValue<ToolResult>(call.tenantId, actionId, action.sealedAnswer);
  const entry = call.catalog().find((candidate) => candidate.tool.name === action.tool);
  if (!entry) return agentRefusals.unknownConfirmation();
  if (action.state === 'pending') {
    if (action.validUntil <= clock.date().toISOString()) return agentRefusals.expiredConfirmation();
    if (!(await claimAgentAction(call.tenantId, actionId, clock.date().toISOString()))) return answerOfRace(call, actionId);
  } else if (!entry.idempotencyKey) {
    return agentRefusals.outcomeUnknown();
  }
  return apply(call, action, entry.path, entry.idempotencyKey);
}

/** Another confirmation claimed it a moment before (or it expired meanwhile): its state now says what to answer. */
async function answerOfRace(call: AgentCall, actionId: string): Promise<ToolResult> {
  const action = await findAgentAction(call.tenantId, actionId);
  if (action?.state === 'done' && action.sealedAnswer) return openActionValue<ToolResult>(call.tenantId, actionId, action.sealedAnswer);
  if (action?.state === 'pending') return agentRefusals.expiredConfirmation();
  return agentRefusals.outcomeUnknown();
}

async function apply(call: AgentCall, action: AgentAction, path: string, honoursIdempotencyKey: boolean): Promise<ToolResult> {
  const args = openActionValue<Record<string, unknown>>(call.tenantId, action.actionId, action.sealedArguments as string);
  let answer: ToolResult;
  try {
    answer = await forwardToRoute({
      path,
      apiKey: call.apiKey,
      body: args,
      actionId: action.actionId,
      ...(honoursIdempotencyKey ? { idempotencyKey: actionIdempotencyKey(action.actionId) } : {}),
    });
  } catch (error) {
    if (error instanceof AnswerLost) return agentRefusals.outcomeUnknown();
    throw error;
  }
  // the same key with the same body: the first sending is still being applied at the route
  if (refusalCode(answer) === 'IDEMPOTENCY_CONFLICT') return agentRefusals.outcomeUnknown();
  await finishAgentAction(call.tenantId, action.actionId, sealActionValue(call.tenantId, action.actionId, answer));
  return answer;
}
