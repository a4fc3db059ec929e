import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  paginateQuery,
  paginateScan,
  type DeleteCommand,
  type PutCommand,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { Conflict } from '../core/errors.ts';
import { AWS_REQUEST_HANDLER } from '../core/aws-timeouts.ts';

let documentClient: DynamoDBDocumentClient | undefined;
let rawClient: DynamoDBClient | undefined;

/** One client per container, created on first use so warm invocations reuse its connections. */
export function dynamoClient(): DynamoDBClient {
  rawClient ??= new DynamoDBClient({ requestHandler: AWS_REQUEST_HANDLER });
  return rawClient;
}

export function documentStore(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamoClient(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function mainTableName(): string {
  return config().TABLE_NAME;
}

/**
 * The one place a failed condition is recognised: undefined when `error` is not one, else the index of
 * the write whose condition failed (0 for a single write; a transaction's from audit-event-writes.ts).
 */
export const failedCondition = (error: unknown): number | undefined =>
  (error as Error | undefined)?.name === 'ConditionalCheckFailedException' ? ((error as { failedWrite?: number }).failedWrite ?? 0) : undefined;

/**
 * The writes of a cancelled transaction whose condition failed (their indexes in the transaction), or
 * undefined when the error is no transaction's cancellation.
 */
export function failedTransactionConditions(error: unknown): number[] | undefined {
  const reasons = (error as { CancellationReasons?: Array<{ Code?: string }> } | undefined)?.CancellationReasons;
  if ((error as Error | undefined)?.name !== 'TransactionCanceledException' || !reasons) return undefined;
  return reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
}

/** Sends a conditional write; whether its condition held (a failed condition is an answer, not an error). */
export async function writeIfConditionHolds(command: UpdateCommand | PutCommand | DeleteCommand): Promise<boolean> {
  try {
    await documentStore().send(command as UpdateCommand);
    return true;
  } catch (error) {
    if (failedCondition(error) !== undefined) return false;
    throw error;
  }
}

/** What an attempt of `retryOnConflict` answers when its conditional write lost to another request. */
export const LOST_RACE = Symbol('lost race');

const CONFLICT_ATTEMPTS = 40;
const CONFLICT_BASE_DELAY_MS = 10;
const CONFLICT_MAX_DELAY_MS = 250;

/**
 * Runs a read-modify-write until its conditional write holds: `attempt` reads the record, computes the
 * change and writes it on condition that the record is as it read it, answering LOST_RACE when another
 * request wrote first. Each retry reads again, so no concurrent change is lost; waits are full-jitter
 * backoff on the injectable clock. A conflict that outlasts every attempt is a 409 CONFLICT (nothing of
 * this request was written), never a 500.
 */
export async function retryOnConflict<T>(what: string, attempt: () => Promise<T | typeof LOST_RACE>): Promise<T> {
  for (let attemptNumber = 1; attemptNumber <= CONFLICT_ATTEMPTS; attemptNumber++) {
    const result = await attempt();
    if (result !== LOST_RACE) return result;
    await clock.sleep(clock.jitter(Math.min(CONFLICT_MAX_DELAY_MS, CONFLICT_BASE_DELAY_MS * 2 ** (attemptNumber - 1))));
  }
  throw new Conflict(`${what} was changed by other requests at the same time, again and again; nothing of this request was written. Retry it.`);
}

/** Every item a scan of the main table finds, a page at a time (the SDK's paginator). */
export async function* scanItems(input: Omit<ScanCommandInput, 'TableName'>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of paginateScan({ client: documentStore() }, { TableName: mainTableName(), ...input })) yield* page.Items ?? [];
}

/** The pages of a query of the main table, as DynamoDB gives them (items, and where the next page starts). */
export function queryPages(input: Omit<QueryCommandInput, 'TableName'>) {
  return paginateQuery({ client: documentStore() }, { TableName: mainTableName(), ...input });
}

/** Every item a query of the main table finds, a page at a time (the SDK's paginator): the caller stops reading when it has enough. */
export async function* queryItems(input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of queryPages(input)) yield* page.Items ?? [];
}
