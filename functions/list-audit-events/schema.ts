import * as z from 'zod';
import { platformSchema } from '../../shared/schemas/common.ts';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from '../../shared/core/audit.ts';
import { paginationSchema, userIdSchema } from '../../shared/schemas/common.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';

const instant = z.iso.datetime({ offset: true }).describe('An ISO 8601 date-time with its offset, such as YYYY-MM-DDThh:mm:ssZ or with an offset (+02:00).');

export const listAuditEventsRequest = z
  .strictObject({
    pagination: paginationSchema,
    userId: z.optional(userIdSchema).check(z.describe('Only the events of this user.')),
    action: z.enum(AUDIT_ACTIONS).optional().describe('Only the events of this action.'),
    since: z.optional(instant).check(z.describe('Only events at or after this time (inclusive).')),
    until: z.optional(instant).check(z.describe('Only events before this time (exclusive).')),
  })
  .refine((input) => !input.since || !input.until || Date.parse(input.since) < Date.parse(input.until), {
    path: ['until'],
    message: 'must be later than since',
  });

export const auditEventSchema = z.object({
  id: z.string(),
  occurredAt: z.string().describe('When the write was made (ISO 8601, UTC).'),
  action: z.enum(AUDIT_ACTIONS),
  actor: z
    .object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string() })
    .describe(
      'Who made the write: an API key’s id (never the key), a rule, a person’s browser on a connect link (a digest of the link), or the service itself.',
    ),
  userId: z.string().optional(),
  platform: z.optional(platformSchema),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string() }),
  changes: z
    .record(z.string(), z.object({ from: z.unknown().optional(), to: z.unknown().optional() }))
    .optional()
    .describe('Each changed field with its values before and after; a value that may hold a secret (a URL, a secret) is left out and only the field named.'),
  outcome: z.enum(['succeeded', 'failed']).describe('`failed`: the platform refused the write; `error.code` says how.'),
  error: z.object({ code: z.string() }).optional(),
  requestId: z.string().optional().describe('The call’s x-request-id; absent for scheduled work.'),
  idempotencyKey: z.string().optional(),
  origin: z
    .object({ type: z.literal('mcp'), client: z.object({ name: z.string(), version: z.string() }) })
    .optional()
    .describe('Present when an AI agent made the write through /mcp: the MCP client’s name and version as it gave them at initialize.'),
});

export const listAuditEventsResult = z.object({ events: z.array(auditEventSchema), paging: pagingSchema });
