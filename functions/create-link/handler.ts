import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { createLinkRequest } from './schema.ts';
import { declaration } from './declaration.ts';
import { createConnectLink } from '../use-cases/connect/create-link.ts';

/** POST /auth/create_link: a hosted link that connects one user's platform account (docs/decisions.md "Connect links"). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: createLinkRequest,
  run: ({ input, user }) => createConnectLink(user, input),
});
