import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Context } from 'aws-lambda';
import { config } from '../core/config.ts';
import { dynamoClient } from '../store/client.ts';

/**
 * `Idempotency-Key` for creating operations, on Powertools idempotency with its DynamoDB layer.
 * The record key is the operation, the tenant and the client's key; the stored payload hash is the
 * request body's fingerprint, so the same key with another body is refused (IdempotencyValidationError
 * → 409). Only successful results are stored: a failed run deletes its record, so a retry runs again.
 */
interface IdempotentCall {
  scope: string;
  fingerprint: unknown;
}

/**
 * `inProgressMs`: how long a run that never finished (a crashed process) blocks a retry with 409;
 * by default the function's remaining time. An operation that guards its own work with a lease
 * (audience uploads) sets it short, so a retry after a crash proceeds within seconds.
 */
export type IdempotentRunner = ReturnType<typeof idempotentRunner>;

/**
 * What an idempotent handler passes to defineOperation: only the bundles of those handlers hold the
 * persistence layer, so a function's code can reach the idempotency table only when its declaration
 * grants it.
 */
interface IdempotencyOptions {
  inProgressMs?: () => number;
  /** where records are kept: the idempotency table unless a unit test gives an in-memory layer */
  persistenceStore?: BasePersistenceLayer;
}

export const idempotent =
  (options: IdempotencyOptions = {}) =>
  (operation: string) =>
    idempotentRunner(operation, options);

export function idempotentRunner(operation: string, options: IdempotencyOptions = {}) {
  // one persistence layer per operation: it remembers its key prefix, and the local gateway runs
  // every operation in one process
  let persistenceStore: BasePersistenceLayer | undefined = options.persistenceStore;
  return async <R>(tenantId: string, idempotencyKey: string, fingerprint: unknown, context: Context, work: () => Promise<R>): Promise<R> => {
    persistenceStore ??= new DynamoDBPersistenceLayer({
      tableName: config().IDEMPOTENCY_TABLE_NAME,
      awsSdkV3Client: dynamoClient(),
    });
    const idempotencyConfig = new IdempotencyConfig({
      eventKeyJmesPath: 'scope',
      payloadValidationJmesPath: 'fingerprint',
      expiresAfterSeconds: config().IDEMPOTENCY_TTL_SECONDS,
      throwOnNoIdempotencyKey: true,
    });
    const inProgressMs = options.inProgressMs?.();
    idempotencyConfig.registerLambdaContext(
      inProgressMs === undefined ? context : { ...context, getRemainingTimeInMillis: () => Math.min(context.getRemainingTimeInMillis(), inProgressMs) },
    );
    const run = makeIdempotent(async (_call: IdempotentCall) => work(), {
      persistenceStore,
      config: idempotencyConfig,
      keyPrefix: operation,
    });
    return run({ scope: `${tenantId}#${idempotencyKey}`, fingerprint });
  };
}
