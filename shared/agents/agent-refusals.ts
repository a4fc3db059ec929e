import { toolError } from './tool-results.ts';

/**
 * The refusals only /mcp answers (as tool errors, docs/agents.md); every other code is the route's own.
 */
export const agentRefusals = {
  writesOff: () => toolError('AGENT_WRITES_OFF', 'This tenant does not let agents write (settings: agents.writes is off). Nothing was changed.'),
  invalidArguments: (problems: Array<{ path: string; message: string }>) =>
    toolError('INVALID_REQUEST', 'The arguments do not fit the tool’s input schema; nothing was sent.', { details: problems }),
  unknownConfirmation: () =>
    toolError(
      'CONFIRMATION_INVALID',
      'No write awaits this confirmation token for this tenant: it is mistyped, of another tenant, or was never issued. Call the write tool again for a new preview.',
    ),
  expiredConfirmation: () =>
    toolError(
      'CONFIRMATION_EXPIRED',
      'This confirmation token has expired (they live 10 minutes); nothing was changed. Call the write tool again for a new preview.',
    ),
  outcomeUnknown: () =>
    toolError(
      'UNKNOWN_OUTCOME',
      'The write was sent but its answer was lost, or it is still being applied: it may have been made. It is not sent again blind; read the state (the matching read tool or list_audit_events) before asking again.',
    ),
  tooLargeToHold: (bytes: number) =>
    toolError(
      'ARGUMENTS_TOO_LARGE',
      `These arguments (${bytes} bytes) are too large to hold for a confirmation (at most 300,000); nothing was changed. Send them in smaller calls, or through the HTTP API.`,
    ),
};
