import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { FunctionDeclaration } from '../core/function-declaration.ts';
import type { User } from '../store/users.ts';
import { AGENT_ACTION_HEADER, header } from './headers.ts';
import { guardEscapes } from './escape-guard.ts';
import { checkIdempotencyKey } from './idempotency-key.ts';
import type { IdempotentRunner } from './idempotency.ts';
import { withRequestLogger } from '../core/logger.ts';
import { type Answer, type AuditDraft, type AuditScope, AuditUnit, draftOf, noAudit, runAudited } from '../core/audit.ts';
import { apiKeyAuth } from './middleware/api-key-auth.ts';
import { envelope, errorEnvelope } from './middleware/envelope.ts';
import { jsonBody } from './middleware/json-body.ts';
import { resolveUser } from './middleware/resolve-user.ts';
import { requestIdOf, tracing } from './middleware/tracing.ts';
import { validate } from './middleware/validate.ts';
import type { OperationContext } from './operation-context.ts';
import type { HttpResponse } from './response.ts';
import { type RequestPorts, storePorts } from './request-ports.ts';

export interface OperationCall<Input, WithUser extends boolean> {
  input: Input;
  tenantId: string;
  user: WithUser extends true ? User : undefined;
  idempotencyKey: string | undefined;
  /** the id of the API key that called (never the key) */
  apiKeyId: string;
  context: Context;
  /** the operation's audit: hand `audit.event(answer)` to the store write that makes the change; an answer that wrote nothing is returned as `unchanged(answer)` */
  audit: AuditUnit;
}

interface OperationDefinition<Schema extends z.core.$ZodType, Result extends object, WithUser extends boolean, JsonSchema extends z.core.$ZodType> {
  /** the function's declaration beside its handler: the operation's name, whether it is idempotent */
  declaration: Pick<FunctionDeclaration, 'operation' | 'idempotent' | 'platform' | 'sealsConnections' | 'callsPlatforms' | 'audit' | 'accepted'>;
  /** `loadAppCredentials`, exactly when the declaration names a platform, callsPlatforms or sealsConnections */
  credentials?: () => Promise<void>;
  /** `connectionHealth` from ./middleware/connection-health.ts, exactly when the declaration names a platform */
  connectionHealth?: () => middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext>;
  request: Schema;
  /** an upload operation's request when its body is JSON (an uploadId) instead of the multipart form */
  jsonRequest?: JsonSchema;
  /** whether `userId` is resolved to a user of the key's tenant (default true) */
  user?: WithUser;
  /** `idempotent()` from ./idempotency.ts, exactly when the declaration says `idempotent` */
  idempotency?: (operation: string) => IdempotentRunner;
  /** the body parser; JSON unless given (the multipart parser for uploads) */
  body?: () => middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, OperationContext>;
  run: (call: OperationCall<z.output<Schema> | z.output<JsonSchema>, WithUser>) => Promise<Answer<Result>>;
  /**
   * `recordAuditEvent` from shared/store/audit-events.ts, exactly when the declaration has `audit`
   * (only the bundles of writing operations hold it; a unit test gives a fake)
   */
  recorder?: (draft: AuditDraft) => Promise<void>;
  /** where keys and users are looked up: the store unless a unit test gives fakes */
  ports?: RequestPorts;
}

/**
 * The one way a handler is built: tracing, envelope, API-key auth, body parsing, validation and
 * user resolution, in that order; then the operation itself, behind idempotency when it creates.
 */
export function defineOperation<
  Schema extends z.core.$ZodType,
  Result extends object,
  WithUser extends boolean = true,
  JsonSchema extends z.core.$ZodType = z.ZodNever,
>(definition: OperationDefinition<Schema, Result, WithUser, JsonSchema>) {
  const { operation, idempotent, platform, sealsConnections, callsPlatforms } = definition.declaration;
  const needsSecrets = Boolean(platform || sealsConnections || callsPlatforms);
  // the declaration grants, the handler's code uses: they must agree (the IAM test checks the bundles too)
  if (Boolean(idempotent) !== Boolean(definition.idempotency))
    throw new Error(`${operation}: declared idempotent ${Boolean(idempotent)}, handler ${Boolean(definition.idempotency)}`);
  if (needsSecrets !== Boolean(definition.credentials))
    throw new Error(`${operation}: declared secrets ${needsSecrets}, handler ${Boolean(definition.credentials)}`);
  if (Boolean(platform) !== Boolean(definition.connectionHealth))
    throw new Error(`${operation}: declared platform ${Boolean(platform)}, connection health ${Boolean(definition.connectionHealth)}`);
  if (Boolean(definition.declaration.audit) !== Boolean(definition.recorder))
    throw new Error(`${operation}: declared audit ${Boolean(definition.declaration.audit)}, recorder ${Boolean(definition.recorder)}`);
  const runIdempotently = definition.idempotency?.(operation);
  const ports = definition.ports ?? storePorts;

  const pipeline = middy<APIGatewayProxyEventV2, unknown, Error, OperationContext>()
    .use(tracing())
    .use(envelope(definition.declaration.accepted ? 202 : 200))
    .use(apiKeyAuth(ports))
    .use((definition.body ?? jsonBody)())
    .use(validate(definition.request, definition.jsonRequest));
  if (definition.user !== false) pipeline.use(resolveUser(ports));
  if (definition.connectionHealth) pipeline.use(definition.connectionHealth());

  const handler = pipeline.handler(async (event, context) => {
    await definition.credentials?.();
    const idempotencyKey = runIdempotently ? checkIdempotencyKey(header(event, 'idempotency-key')) : undefined;
    const input = context.input as z.output<Schema> | z.output<JsonSchema>;
    const call = {
      input,
      tenantId: context.tenantId,
      user: context.user as OperationCall<z.output<Schema>, WithUser>['user'],
      idempotencyKey,
      apiKeyId: context.apiKeyId,
      context,
      audit: declaredAuditUnit(definition.declaration, context.tenantId, input),
    };
    // a write an agent asked for over /mcp names its action: the audit records the agent as its origin
    const agentActionId = definition.declaration.audit ? header(event, AGENT_ACTION_HEADER) : undefined;
    const origin = agentActionId ? await ports.agentOrigin(context.tenantId, agentActionId, operation) : undefined;
    const scope: AuditScope = {
      actor: { type: 'api_key', id: call.apiKeyId },
      requestId: requestIdOf(event, context),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ...(origin ? { origin } : {}),
    };
    // a replay of an Idempotency-Key does not run, so it records nothing again
    const audited = () => runAudited(scope, call.audit, definition.recorder, () => definition.run(call));
    if (runIdempotently && idempotencyKey) {
      return runIdempotently(context.tenantId, idempotencyKey, context.payloadFingerprint, context, audited);
    }
    return audited();
  });

  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event, context);
    return withRequestLogger({ requestId, operation }, () =>
      guardEscapes(() => handler(event, context as OperationContext) as Promise<HttpResponse>).catch((error: unknown) => {
        // only an escaped error gets here: the middleware answered everything else
        const response = errorEnvelope(error);
        response.headers['x-request-id'] = requestId;
        return response;
      }),
    );
  };
}

/** The audit unit of one call, from its declaration (one that records nothing when it declares no event, or the call writes nothing). */
function declaredAuditUnit(declaration: Pick<FunctionDeclaration, 'audit' | 'platform'>, tenantId: string, input: unknown): AuditUnit {
  const spec = declaration.audit;
  if (!spec || !(spec.writes?.(input) ?? true)) return noAudit();
  const { platform } = declaration;
  return new AuditUnit((result, failure) => draftOf(spec, { tenantId, ...(platform ? { platform } : {}), input, result, ...(failure ? { failure } : {}) }));
}
