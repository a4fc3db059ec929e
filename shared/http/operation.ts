import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { FunctionDeclaration } from '../core/function-declaration.ts';
import type { User } from '../store/users.ts';
import { header } from './headers.ts';
import { guardEscapes } from './escape-guard.ts';
import { checkIdempotencyKey } from './idempotency-key.ts';
import type { IdempotentRunner } from './idempotency.ts';
import { log, withRequestLogger } from '../core/logger.ts';
import { type AuditDraft, type AuditScope, draftOf, withAuditScope } from '../core/audit.ts';
import { PlatformError } from '../core/errors.ts';
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
}

interface OperationDefinition<Schema extends z.ZodType, Result extends object, WithUser extends boolean, JsonSchema extends z.ZodType> {
  /** the function's declaration beside its handler: the operation's name, whether it is idempotent */
  declaration: Pick<FunctionDeclaration, 'operation' | 'idempotent' | 'platform' | 'sealsConnections' | 'callsPlatforms' | 'audit'>;
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
  run: (call: OperationCall<z.output<Schema> | z.output<JsonSchema>, WithUser>) => Promise<Result>;
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
export function defineOperation<Schema extends z.ZodType, Result extends object, WithUser extends boolean = true, JsonSchema extends z.ZodType = z.ZodNever>(
  definition: OperationDefinition<Schema, Result, WithUser, JsonSchema>,
) {
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
    .use(envelope())
    .use(apiKeyAuth(ports))
    .use((definition.body ?? jsonBody)())
    .use(validate(definition.request, definition.jsonRequest));
  if (definition.user !== false) pipeline.use(resolveUser(ports));
  if (definition.connectionHealth) pipeline.use(definition.connectionHealth());

  const handler = pipeline.handler(async (event, context) => {
    await definition.credentials?.();
    const idempotencyKey = runIdempotently ? checkIdempotencyKey(header(event, 'idempotency-key')) : undefined;
    const call = {
      input: context.input as z.output<Schema> | z.output<JsonSchema>,
      tenantId: context.tenantId,
      user: context.user as OperationCall<z.output<Schema>, WithUser>['user'],
      idempotencyKey,
      apiKeyId: context.apiKeyId,
      context,
    };
    const audited = () => auditedRun(definition.declaration, definition.recorder, call, requestIdOf(event, context), () => definition.run(call));
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

/**
 * Runs the operation in its audit scope (the key's id as actor, the request id, the Idempotency-Key):
 * a write to the table stores the declared event in its own transaction; otherwise the event is stored
 * once the operation answered, or once its platform refused (`failed`, with the code). A replay of an
 * Idempotency-Key does not run, so it records nothing again. docs/decisions.md, "Audit log".
 */
async function auditedRun<R extends object>(
  declaration: Pick<FunctionDeclaration, 'audit' | 'platform'>,
  recorder: ((draft: AuditDraft) => Promise<void>) | undefined,
  call: OperationCall<unknown, boolean>,
  requestId: string,
  run: () => Promise<R>,
): Promise<R> {
  const spec = declaration.audit;
  const records = spec && recorder && (spec.writes?.(call.input) ?? true);
  const scope: AuditScope = {
    actor: { type: 'api_key', id: call.apiKeyId },
    requestId,
    ...(call.idempotencyKey ? { idempotencyKey: call.idempotencyKey } : {}),
    ...(records
      ? {
          declared: (result, failure) =>
            draftOf(spec, { tenantId: call.tenantId, ...(declaration.platform ? { platform: declaration.platform } : {}), input: call.input, result, failure }),
        }
      : {}),
  };
  return runInAuditScope(scope, recorder, run);
}

/**
 * Runs a write in its audit scope and stores its declared event once it is done, or once its platform
 * refused it (`failed`, with the code), unless the write stored the event in its own transaction. The
 * operations use it, and so does the optimizer for each action of a rule.
 */
export function runInAuditScope<R extends object>(
  scope: AuditScope,
  recorder: ((draft: AuditDraft) => Promise<void>) | undefined,
  run: () => Promise<R>,
): Promise<R> {
  return withAuditScope(scope, async () => {
    let result: R;
    try {
      result = await run();
    } catch (error) {
      if (scope.declared && !scope.declaredRecorded && error instanceof PlatformError)
        await recordSafely(recorder, scope.declared(undefined, { code: error.code }));
      throw error;
    }
    if (scope.declared && !scope.declaredRecorded) await recordSafely(recorder, scope.declared(result));
    return result;
  });
}

/** The platform has already written: a store that fails now must not turn that into an error the client would retry. */
async function recordSafely(recorder: ((draft: AuditDraft) => Promise<void>) | undefined, draft: AuditDraft | undefined): Promise<void> {
  if (!draft || !recorder) return;
  await recorder(draft).catch((error: unknown) => log().error('audit event not stored', { action: draft.action, reason: (error as Error).name }));
}
