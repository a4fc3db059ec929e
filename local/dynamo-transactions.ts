import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from './keep-alive.ts';
import { countStoreRequest } from './store-requests.ts';
import { type Footprint, ItemLocks } from './item-locks.ts';

/**
 * DynamoDB's TransactWriteItems in front of dynalite, which has none (its issue #98; the pull request
 * that adds it, #143, is not merged): every other call passes through untouched. A transaction holds
 * the items it writes alone (local/item-locks.ts): a call that touches one of them waits for it, calls
 * in flight on them finish first, and every other call runs beside it, as in the cloud; so no reader
 * sees it half done. Its items are written one by one with dynalite's own conditional writes, each answering the
 * item as it was (ALL_OLD); when a condition fails, the items already written are put back and the answer is
 * the service's TransactionCanceledException with one cancellation reason per item. (A condition
 * check is a rewrite of the item as it is, under its condition.) This stands in for the cloud's
 * transactions in the local stack only; the code under test sends the same request to either.
 */
type AttributeMap = Record<string, unknown>;

/** the headers of the caller's own connection and framing, not passed on (the forwarded call has its own) */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'expect']);

interface WriteSpec {
  TableName: string;
  Item?: AttributeMap;
  Key?: AttributeMap;
  ConditionExpression?: string;
  UpdateExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
}

type TransactItem = { Put?: WriteSpec; Update?: WriteSpec; Delete?: WriteSpec; ConditionCheck?: WriteSpec };

class DynamoAnswer {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string) {
    this.status = status;
    this.body = body;
  }
  get failedCondition(): boolean {
    return this.status === 400 && this.body.includes('ConditionalCheckFailedException');
  }
}

/** What the front tells of each item a put writes (alone or in a transaction), in DynamoDB's attribute JSON: the local stream reads it. */
export type PutListener = (tableName: string, item: AttributeMap) => void;

export async function startTransactionFront(backend: string, onPut: PutListener = () => undefined): Promise<{ endpoint: string; close(): Promise<void> }> {
  const locks = new ItemLocks();
  const keySchemas = new Map<string, string[]>();

  // every call reaches dynalite through node:http on kept-alive sockets: fetch's streams and headers cost
  // the shared test stack's one thread about a tenth of its time (a CPU profile of the stack's tests)
  const agent = new Agent({ keepAlive: true });
  const toBackend = (headers: Record<string, string>, body: string | Buffer) =>
    new Promise<DynamoAnswer>((resolve, reject) => {
      const forwarded = httpRequest(
        backend,
        { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(new DynamoAnswer(response.statusCode ?? 500, Buffer.concat(chunks).toString('utf8'))));
          response.on('error', reject);
        },
      );
      forwarded.on('error', reject);
      forwarded.end(body);
    });

  async function call(headers: IncomingHttpHeaders, operation: string, body: unknown): Promise<DynamoAnswer> {
    return toBackend(
      {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
        authorization: String(headers.authorization ?? ''),
        'x-amz-date': String(headers['x-amz-date'] ?? ''),
      },
      JSON.stringify(body),
    );
  }

  /** A table's key attribute names, hash key first (read once). */
  async function keyNames(headers: IncomingHttpHeaders, tableName: string): Promise<string[]> {
    let names = keySchemas.get(tableName);
    if (!names) {
      const described = await call(headers, 'DescribeTable', { TableName: tableName });
      const table = JSON.parse(described.body) as { Table?: { KeySchema: Array<{ AttributeName: string; KeyType: string }> } };
      names = [...(table.Table?.KeySchema ?? [])].sort((a) => (a.KeyType === 'HASH' ? -1 : 1)).map((key) => key.AttributeName);
      if (names.length > 0) keySchemas.set(tableName, names);
    }
    return names;
  }

  async function keyOf(headers: IncomingHttpHeaders, spec: WriteSpec): Promise<AttributeMap> {
    if (spec.Key) return spec.Key;
    const names = await keyNames(headers, spec.TableName);
    return Object.fromEntries(names.map((name) => [name, spec.Item?.[name]]));
  }

  /** What a call touches (local/item-locks.ts), from its body. */
  async function footprintsOf(headers: IncomingHttpHeaders, operation: string, body: Record<string, any>): Promise<Footprint[]> {
    const itemsOf = async (tableName: string, keys: AttributeMap[]) => {
      const names = await keyNames(headers, tableName);
      return keys.map((key) => ({
        partition: JSON.stringify(key[names[0] ?? '']),
        id: JSON.stringify(names.map((name) => key[name])),
      }));
    };
    const single = async (tableName: string, key: AttributeMap) => [{ table: tableName, items: await itemsOf(tableName, [key]), partitions: [], whole: false }];
    switch (operation) {
      case 'GetItem':
      case 'DeleteItem':
      case 'UpdateItem':
        return single(body.TableName, body.Key ?? {});
      case 'PutItem':
        return single(body.TableName, await keyOf(headers, { TableName: body.TableName, Item: body.Item }));
      case 'BatchGetItem':
        return Promise.all(
          Object.entries((body.RequestItems ?? {}) as Record<string, { Keys: AttributeMap[] }>).map(async ([table, request]) => ({
            table,
            items: await itemsOf(table, request.Keys ?? []),
            partitions: [],
            whole: false,
          })),
        );
      case 'TransactWriteItems': {
        const specs = ((body.TransactItems ?? []) as TransactItem[]).map(
          (item) => (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck) as WriteSpec,
        );
        return Promise.all(
          specs.map(async (spec) => ({
            table: spec.TableName,
            items: await itemsOf(spec.TableName, [await keyOf(headers, spec)]),
            partitions: [],
            whole: false,
          })),
        );
      }
      case 'Query': {
        const [hashKey] = await keyNames(headers, body.TableName);
        const equal = /(#?\w+)\s*=\s*(:\w+)/g;
        const partitions: string[] = [];
        for (const [, name = '', placeholder = ''] of String(body.KeyConditionExpression ?? '').matchAll(equal)) {
          const attribute = name.startsWith('#') ? body.ExpressionAttributeNames?.[name] : name;
          if (attribute === hashKey) partitions.push(JSON.stringify(body.ExpressionAttributeValues?.[placeholder]));
        }
        const onTable = !body.IndexName && partitions.length > 0;
        return [{ table: body.TableName, items: [], partitions: onTable ? partitions : [], whole: !onTable }];
      }
      default:
        return body.TableName ? [{ table: body.TableName, items: [], partitions: [], whole: true }] : [];
    }
  }

  const conditionOf = (spec: WriteSpec) => ({
    ...(spec.ConditionExpression ? { ConditionExpression: spec.ConditionExpression } : {}),
    ...(spec.ExpressionAttributeNames ? { ExpressionAttributeNames: spec.ExpressionAttributeNames } : {}),
    ...(spec.ExpressionAttributeValues ? { ExpressionAttributeValues: spec.ExpressionAttributeValues } : {}),
  });

  /**
   * One item's write, answering the item as it was before (ALL_OLD): what a rollback puts back, with
   * no read of its own. A condition check rewrites the item as it is under its condition (reading it
   * first: there is nothing else to write).
   */
  async function write(headers: IncomingHttpHeaders, item: TransactItem, key: AttributeMap): Promise<{ answer: DynamoAnswer; before?: AttributeMap }> {
    const old = (answer: DynamoAnswer) => ({
      answer,
      before: answer.status === 200 ? (JSON.parse(answer.body) as { Attributes?: AttributeMap }).Attributes : undefined,
    });
    if (item.Put)
      return old(await call(headers, 'PutItem', { TableName: item.Put.TableName, Item: item.Put.Item, ...conditionOf(item.Put), ReturnValues: 'ALL_OLD' }));
    if (item.Update)
      return old(
        await call(headers, 'UpdateItem', {
          TableName: item.Update.TableName,
          Key: key,
          UpdateExpression: item.Update.UpdateExpression,
          ...conditionOf(item.Update),
          ReturnValues: 'ALL_OLD',
        }),
      );
    if (item.Delete)
      return old(await call(headers, 'DeleteItem', { TableName: item.Delete.TableName, Key: key, ...conditionOf(item.Delete), ReturnValues: 'ALL_OLD' }));
    const check = item.ConditionCheck as WriteSpec;
    const read = await call(headers, 'GetItem', { TableName: check.TableName, Key: key, ConsistentRead: true });
    if (read.status !== 200) return { answer: read };
    const current = (JSON.parse(read.body) as { Item?: AttributeMap }).Item;
    const answer = current
      ? await call(headers, 'PutItem', { TableName: check.TableName, Item: current, ...conditionOf(check) })
      : await call(headers, 'DeleteItem', { TableName: check.TableName, Key: key, ...conditionOf(check) });
    return { answer, before: current };
  }

  async function transact(headers: IncomingHttpHeaders, body: { TransactItems?: TransactItem[] }): Promise<DynamoAnswer> {
    const items = body.TransactItems ?? [];
    if (items.length === 0 || items.length > 100) return new DynamoAnswer(400, validation('TransactItems must hold 1 to 100 items'));
    const specs = items.map((item) => (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck) as WriteSpec);
    const keys = await Promise.all(specs.map((spec) => keyOf(headers, spec)));
    const before: Array<AttributeMap | undefined> = [];
    for (const [index, item] of items.entries()) {
      const { answer, before: previous } = await write(headers, item, keys[index] as AttributeMap);
      if (answer.status === 200) {
        before.push(previous);
        continue;
      }
      for (let done = index - 1; done >= 0; done--) await restore(headers, specs[done] as WriteSpec, keys[done] as AttributeMap, before[done]);
      if (!answer.failedCondition) return answer;
      const reasons = items.map((_, position) =>
        position === index ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' },
      );
      return new DynamoAnswer(
        400,
        JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
          CancellationReasons: reasons,
        }),
      );
    }
    for (const item of items) if (item.Put?.Item) onPut(item.Put.TableName, item.Put.Item);
    return new DynamoAnswer(200, '{}');
  }

  async function restore(headers: IncomingHttpHeaders, spec: WriteSpec, key: AttributeMap, before: AttributeMap | undefined): Promise<void> {
    if (before) await call(headers, 'PutItem', { TableName: spec.TableName, Item: before });
    else await call(headers, 'DeleteItem', { TableName: spec.TableName, Key: key });
  }

  async function passThrough(headers: IncomingHttpHeaders, target: string, raw: Buffer): Promise<DynamoAnswer> {
    const forwarded: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (typeof value === 'string' && !HOP_HEADERS.has(name)) forwarded[name] = value;
    forwarded['x-amz-target'] = target;
    return toBackend(forwarded, raw);
  }

  /** A call under the locks of what it touches: a transaction alone on its items, any other beside the rest. */
  async function handle(headers: IncomingHttpHeaders, target: string, raw: Buffer): Promise<DynamoAnswer> {
    const operation = target.slice(target.indexOf('.') + 1);
    const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, any>;
    const footprints = await footprintsOf(headers, operation, body);
    if (operation === 'TransactWriteItems') return locks.run(true, footprints, () => transact(headers, body));
    return locks.run(false, footprints, () => passThrough(headers, target, raw));
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const target = String(request.headers['x-amz-target'] ?? '');
      countStoreRequest(target.slice(target.indexOf('.') + 1));
      const answer = handle(request.headers, target, raw);
      answer.then(
        (result) => {
          if (result.status === 200 && target.endsWith('.PutItem')) {
            const put = JSON.parse(raw.toString('utf8')) as { TableName: string; Item: AttributeMap };
            onPut(put.TableName, put.Item);
          }
          response.writeHead(result.status, { 'content-type': 'application/x-amz-json-1.0' });
          response.end(result.body);
        },
        (error: Error) => {
          response.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
          response.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: error.message }));
        },
      );
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

const validation = (message: string) => JSON.stringify({ __type: 'com.amazon.coral.validate#ValidationException', message });
