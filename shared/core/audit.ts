import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { clock } from './clock.ts';
import { type Platform, PlatformError } from './errors.ts';
import { log } from './logger.ts';

/**
 * The audit log's vocabulary and the scope a write is made in (docs/decisions.md, "Audit log"). Every
 * write the service makes for a tenant appends one event; who made it (the actor), the request and its
 * Idempotency-Key come from the scope the operation, worker or connect page runs in, so the code that
 * writes names only what it changed. An event never holds a token, secret, code or contact value:
 * `changes` carries field names, and values only where they are names, statuses or money.
 */
export const AUDIT_ACTIONS = [
  'user.created',
  'connection.connected',
  'connection.disconnected',
  'connection.reconnect_required',
  'audience.created',
  'audience.updated',
  'audience_job.started',
  'search_campaign.created',
  'lead_form.created',
  'campaign.status_changed',
  'campaign.budget_changed',
  'rule.created',
  'rule.updated',
  'rule.deleted',
  'rule.disabled',
  'settings.updated',
  'webhook_secret.rotated',
  'optimization.recorded',
  'upload.created',
  'webhook.test_sent',
  'connect_link.created',
  'api_key.created',
  'api_key.revoked',
  'ad_media.uploaded',
  'ad_media_job.started',
  'campaign_launch.started',
  'campaign.launched',
  'campaign.launch_failed',
  'campaign.eu_political_declared',
  'leads.subscribed',
  'leads.unsubscribed',
  'leads_backfill.started',
  'leads.backfilled',
  'lead.erased',
  'proposal.approved',
  'proposal.rejected',
  'rule_run.undone',
  'rule_undo.finished',
  'conversions.stages_set',
  'conversion.sent',
  'lead.outcome_reported',
  'conversions_job.started',
  'conversions_job.finished',
  'report_export.started',
  'report_export.finished',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'user',
  'connection',
  'audience',
  'audience_job',
  'search_campaign',
  'lead_form',
  'campaign',
  'rule',
  'settings',
  'webhook_secret',
  'optimization',
  'upload',
  'connect_link',
  'api_key',
  'webhook_event',
  'media',
  'ad_media_job',
  'campaign_launch_job',
  'lead_subscription',
  'leads_backfill_job',
  'lead',
  'proposal',
  'rule_run',
  'rule_undo_job',
  'conversion_stages',
  'conversion',
  'conversions_job',
  'report_export_job',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_ACTOR_TYPES = ['api_key', 'rule', 'connect_link', 'system'] as const;
export interface AuditActor {
  type: (typeof AUDIT_ACTOR_TYPES)[number];
  id: string;
}

/** `{<field>: {from, to}}`; a value that may not be shown (a URL, a secret) is left out, the field named. */
export type AuditChanges = Record<string, { from?: unknown; to?: unknown }>;

/** What a write says of itself; the rest of the event comes from its scope. */
export interface AuditDraft {
  tenantId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  userId?: string;
  platform?: Platform;
  changes?: AuditChanges;
  outcome?: 'succeeded' | 'failed';
  error?: { code: string };
  /** who made the change when it is not the scope's actor (a rule its group's run disabled) */
  actor?: AuditActor;
}

export interface AuditEvent {
  id: string;
  occurredAt: string;
  action: AuditAction;
  actor: AuditActor;
  userId?: string;
  platform?: Platform;
  target: { type: AuditTargetType; id: string };
  changes?: AuditChanges;
  outcome: 'succeeded' | 'failed';
  error?: { code: string };
  requestId?: string;
  idempotencyKey?: string;
  origin?: AuditOrigin;
}

/** Where a write came from when not straight from the HTTP API: an AI agent over MCP, with the client it named (docs/agents.md). */
export interface AuditOrigin {
  type: 'mcp';
  client: { name: string; version: string };
}

/**
 * How an operation's declaration describes the event its success (or its platform's refusal) records,
 * from its validated input and its result (undefined when it failed).
 */
// biome-ignore lint/suspicious/noExplicitAny: a declaration describes its own operation's input and result; the operation validated both
export interface AuditSpec<Input = any, Result = any> {
  action: AuditAction | ((input: Input, result: Result | undefined) => AuditAction);
  target: (input: Input, result: Result | undefined) => { type: AuditTargetType; id: string };
  changes?: (input: Input, result: Result | undefined) => AuditChanges | undefined;
  /** false for a call that writes nothing (a dry run): it records nothing */
  writes?: (input: Input) => boolean;
}

/** Who writes, for which request: the context every event of the work done inside it carries. */
export interface AuditScope {
  actor: AuditActor;
  requestId?: string;
  idempotencyKey?: string;
  origin?: AuditOrigin;
}

/** An event handed to a store write, which stores it in the write's own transaction and says so. */
export interface PendingAudit {
  draft: AuditDraft;
  stored(): void;
}
/** What a store write takes for its audit: events of its own, or an audit unit's pending event. */
export type AuditToStore = AuditDraft | PendingAudit;
export const isPendingAudit = (audit: AuditToStore): audit is PendingAudit => 'stored' in audit;

/**
 * The audit of one operation (or one rule action), explicit: the operation makes it from its
 * declaration and hands it to the use case with the call. The use case gives `event(answer)` to the
 * store write that makes its change, which stores it in the same transaction and marks it stored. A
 * path that answers without writing returns its answer as a value that says so (`unchanged(answer)`,
 * or throws `unchangedBy(error)`), which the middleware records nothing for. Afterwards `unrecorded`
 * is the event still to record (the change was a platform's, or the platform refused it), or undefined.
 */
export class AuditUnit {
  private stored = false;
  private readonly describe?: (result: object | undefined, failure?: { code: string }) => AuditDraft | undefined;

  constructor(describe?: (result: object | undefined, failure?: { code: string }) => AuditDraft | undefined) {
    this.describe = describe;
  }

  /** The declared event for this answer, for the write's transaction; `known` adds what only the write knows (a value before the change). */
  event(result: object, known: { changes?: AuditChanges } = {}): PendingAudit | undefined {
    const draft = this.describe?.(result);
    if (!draft) return undefined;
    return {
      draft: known.changes ? { ...draft, changes: { ...draft.changes, ...known.changes } } : draft,
      stored: () => {
        this.stored = true;
      },
    };
  }

  /** The event no transaction stored, for this answer or this platform refusal; undefined when there is none to record. */
  unrecorded(result: object | undefined, failure?: { code: string }): AuditDraft | undefined {
    if (this.stored) return undefined;
    return this.describe?.(result, failure);
  }
}

/**
 * An answer given without writing anything (what an earlier call did, a dry run, nothing to change):
 * returned by the operation as a value, so the middleware records nothing for it and hands the client
 * the answer inside (docs/architecture.md, "The audit value").
 */
export class Unchanged<R extends object> {
  readonly answer: R;

  constructor(answer: R) {
    this.answer = answer;
  }
}
export const unchanged = <R extends object>(answer: R): Unchanged<R> => new Unchanged(answer);
/** What an audited path answers: its answer (the change it made, recorded), or an unchanged one. */
export type Answer<R extends object> = R | Unchanged<R>;
/** An answer built from another: unchanged when that one was. */
export const likewise = <R extends object>(from: Answer<object>, answer: R): Answer<R> => (from instanceof Unchanged ? unchanged(answer) : answer);
/** The answer inside, for a caller that uses it (a rule, a launch's activation). */
export const answerOf = <R extends object>(answer: Answer<R>): R => (answer instanceof Unchanged ? answer.answer : answer);

const UNCHANGED = Symbol('unchanged');
/** A refusal of our own made before any write (a guard): it records no failed event. */
export const unchangedBy = <E extends Error>(error: E): E => Object.assign(error, { [UNCHANGED]: true });
const isUnchangedBy = (error: unknown) => typeof error === 'object' && error !== null && UNCHANGED in error;

/** An audit unit that records nothing (a call whose operation declares no event). */
export const noAudit = (): AuditUnit => new AuditUnit();

const scopes = new AsyncLocalStorage<AuditScope>();

export const withAuditScope = <T>(scope: AuditScope, work: () => Promise<T>): Promise<T> => scopes.run(scope, work);
export const auditScope = (): AuditScope | undefined => scopes.getStore();

/** Work done by the service itself (a schedule, a worker) when no request or rule is behind it. */
export const systemActor = (name: string): AuditActor => ({ type: 'system', id: name });

/** The draft an operation's declaration describes, for its input and result (or its failure). */
export function draftOf(
  spec: AuditSpec,
  facts: { tenantId: string; platform?: Platform; input: unknown; result: object | undefined; failure?: { code: string } },
): AuditDraft {
  const { input, result } = facts;
  const userId = (input as { userId?: unknown }).userId ?? (result as { userId?: unknown } | undefined)?.userId;
  const changes = spec.changes?.(input, result);
  // an operation for any platform names it in its input (a disconnect); a free-form platform name (history records) is not ours
  const named = (input as { platform?: unknown }).platform;
  const platform = facts.platform ?? (named === 'social' || named === 'searchads' || named === 'professional' ? named : undefined);
  return {
    tenantId: facts.tenantId,
    action: typeof spec.action === 'function' ? spec.action(input, result) : spec.action,
    target: spec.target(input, result),
    ...(typeof userId === 'string' ? { userId } : {}),
    ...(platform ? { platform } : {}),
    ...(changes ? { changes } : {}),
    ...(facts.failure ? { outcome: 'failed' as const, error: facts.failure } : {}),
  };
}

/** The whole event: the draft, its actor and request from the scope, an id and the time. */
export function auditEventOf(draft: AuditDraft, scope = auditScope()): AuditEvent {
  const now = clock.now();
  return {
    id: `aud_${randomBytes(12).toString('hex')}`,
    occurredAt: new Date(now).toISOString(),
    action: draft.action,
    actor: draft.actor ?? scope?.actor ?? systemActor('service'),
    ...(draft.userId ? { userId: draft.userId } : {}),
    ...(draft.platform ? { platform: draft.platform } : {}),
    target: draft.target,
    ...(draft.changes && Object.keys(draft.changes).length > 0 ? { changes: draft.changes } : {}),
    outcome: draft.outcome ?? 'succeeded',
    ...(draft.error ? { error: draft.error } : {}),
    ...(scope?.requestId ? { requestId: scope.requestId } : {}),
    ...(scope?.idempotencyKey ? { idempotencyKey: scope.idempotencyKey } : {}),
    ...(scope?.origin ? { origin: scope.origin } : {}),
  };
}

/**
 * Runs a write in its audit scope, then records the event its audit unit still holds: once the work
 * answered, or once its platform refused it (`failed`, with the code). An event a transaction stored is
 * not recorded again. The operations use it, and so does a rule run for each action.
 */
export function runAudited<R extends object>(
  scope: AuditScope,
  unit: AuditUnit,
  recorder: ((draft: AuditDraft) => Promise<void>) | undefined,
  run: () => Promise<Answer<R>>,
): Promise<R> {
  return withAuditScope(scope, async () => {
    let result: Answer<R>;
    try {
      result = await run();
    } catch (error) {
      if (error instanceof PlatformError && !isUnchangedBy(error)) await recordSafely(recorder, unit.unrecorded(undefined, { code: error.code }));
      throw error;
    }
    if (result instanceof Unchanged) return result.answer;
    await recordSafely(recorder, unit.unrecorded(result));
    return result;
  });
}

/** The platform has already written: a store that fails now must not turn that into an error the client would retry. */
async function recordSafely(recorder: ((draft: AuditDraft) => Promise<void>) | undefined, draft: AuditDraft | undefined): Promise<void> {
  if (!draft || !recorder) return;
  await recorder(draft).catch((error: unknown) => log().error('audit event not stored', { action: draft.action, reason: (error as Error).name }));
}
