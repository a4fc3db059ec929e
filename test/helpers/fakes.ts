import type { StepRecord, StepStore } from '../../shared/core/exactly-once.ts';
import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { ApiKeyOwner } from '../../shared/store/api-key-lookup.ts';
import { hashApiKey } from '../../shared/store/api-key-lookup.ts';
import type { User } from '../../shared/store/users.ts';
import type { RequestPorts } from '../../shared/http/request-ports.ts';
import type { FlowChange, FlowItem, FlowKey, FlowStore } from '../../shared/store/flow-items.ts';
import type { FlowQueue } from '../../shared/flows/event-flow.ts';
import type { QueueId } from '../../shared/core/queues.ts';

/**
 * In-memory stand-ins for the ports, for unit tests that run handlers and middleware with no stack:
 * the store's key and user lookups, and an idempotency persistence layer on Powertools' cache layer
 * over a Map (the library's own testing habit).
 */
export class FakeRequestStore implements RequestPorts {
  readonly keys = new Map<string, ApiKeyOwner>();
  readonly users = new Map<string, User>();
  lookups = 0;

  addKey(apiKey: string, owner: ApiKeyOwner): void {
    this.keys.set(hashApiKey(apiKey), owner);
  }

  addUser(user: User): void {
    this.users.set(`${user.tenantId}/${user.userId}`, user);
  }

  findApiKey = async (keyHash: string) => {
    this.lookups++;
    return this.keys.get(keyHash);
  };

  findUser = async (tenantId: string, userId: string) => this.users.get(`${tenantId}/${userId}`);

  agentOrigin = async () => undefined;
}

/**
 * Idempotency records in a Map, on Powertools' own base layer (its tests' habit): a put finds an
 * unexpired record and refuses, as the table's conditional write does. (The library's cache layer
 * drops the payload hash when it completes a record, so it cannot stand in for the table here.)
 */
class InMemoryPersistenceLayer extends BasePersistenceLayer {
  private readonly records = new Map<string, IdempotencyRecord>();

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const record = this.records.get(idempotencyKey);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const existing = this.records.get(record.idempotencyKey);
    if (existing && !existing.isExpired()) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const existing = this.records.get(record.idempotencyKey);
    this.records.set(
      record.idempotencyKey,
      new IdempotencyRecord({
        idempotencyKey: record.idempotencyKey,
        status: record.getStatus(),
        expiryTimestamp: record.expiryTimestamp,
        responseData: record.responseData,
        payloadHash: existing?.payloadHash,
      }),
    );
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.records.delete(record.idempotencyKey);
  }
}

export const inMemoryIdempotencyLayer = (): BasePersistenceLayer => new InMemoryPersistenceLayer();

export function lambdaContext(remainingMs = 10_000): Context {
  return {
    awsRequestId: `req-${Math.random().toString(16).slice(2)}`,
    functionName: 'unit',
    getRemainingTimeInMillis: () => remainingMs,
  } as unknown as Context;
}

export function postEvent(path: string, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    rawPath: path,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path }, requestId: 'gw-1' },
  } as unknown as APIGatewayProxyEventV2;
}

/** The exactly-once step's store in memory (what the DynamoDB one does, with a Map). */
export function memoryStepStore<Intent, Result>(): StepStore<string, Intent, Result> & { records: Map<string, StepRecord<Intent, Result>> } {
  const records = new Map<string, StepRecord<Intent, Result>>();
  return {
    records,
    find: async (key) => structuredClone(records.get(key)),
    begin: async (key, intent) => {
      if (records.has(key)) return false;
      records.set(key, { status: 'in_progress', intent });
      return true;
    },
    complete: async (key, result) => {
      const record = records.get(key);
      if (!record || record.status === 'completed') return false;
      records.set(key, { status: 'completed', intent: record.intent, result });
      return true;
    },
  };
}

/**
 * The event flows' store in a Map (the table's conditional writes and due index, kept true to
 * shared/store/flow-items.ts): a put of a key held already is refused; a change needs the item and
 * every `expect` to hold, removes `relay`, and moves or settles the due time. `crashAfter` makes the
 * next writes throw after they are applied, as a process killed before it heard the answer.
 */
export class FakeFlowStore implements FlowStore {
  readonly items = new Map<string, FlowItem>();
  private failNext = 0;

  failNextWrites(count: number): void {
    this.failNext = count;
  }

  async putIfAbsent(item: FlowItem): Promise<boolean> {
    const id = `${item.pk}|${item.sk}`;
    if (this.items.has(id)) return false;
    this.items.set(id, structuredClone(item));
    this.crashIfAsked();
    return true;
  }

  async change(key: FlowKey, change: FlowChange): Promise<boolean> {
    const item = this.items.get(`${key.pk}|${key.sk}`);
    if (!item) return false;
    for (const [name, value] of Object.entries(change.expect ?? {})) if (item[name] !== value) return false;
    Object.assign(item, structuredClone(change.set ?? {}));
    delete item.relay;
    if (change.due === 'settled') {
      delete item.dueShard;
      delete item.dueAt;
    } else item.dueAt = change.due;
    this.crashIfAsked();
    return true;
  }

  async dueBefore(shard: string, before: number, limit: number): Promise<FlowItem[]> {
    return [...this.items.values()]
      .filter((item) => item.dueShard === shard && typeof item.dueAt === 'number' && item.dueAt < before)
      .sort((a, b) => Number(a.dueAt) - Number(b.dueAt))
      .slice(0, limit)
      .map((item) => structuredClone(item));
  }

  private crashIfAsked(): void {
    if (this.failNext === 0) return;
    this.failNext--;
    throw new Error('the process died after the write');
  }
}

/** A queue that keeps what it was sent, and loses the next `lose` messages (a send that failed, a message dead-lettered). */
export class FakeFlowQueue implements FlowQueue {
  readonly sent: Array<{ queue: string; message: unknown; groupId?: string }> = [];
  lose = 0;

  async send(queue: QueueId, message: unknown, options: { groupId?: string }): Promise<void> {
    if (this.lose > 0) {
      this.lose--;
      throw new Error('the queue did not take the message');
    }
    this.sent.push({ queue, message, ...options });
  }
}
