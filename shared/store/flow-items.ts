import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { DUE_INDEX } from './tables.ts';

/**
 * The event flows' items in the main table (docs/architecture.md, "The event flow"): each at its own
 * natural key, written once; its delivery state in its own attributes, indexed while due:
 *   due index:  dueShard = <flow>#<0..15>  /  dueAt (epoch ms)
 */
export type FlowName = 'inbound' | 'webhooks' | 'conversions';

/** A stored item as the flow sees it: its key, its attributes, its delivery state. */
export type FlowItem = Record<string, unknown> & { pk: string; sk: string };
export type FlowKey = Pick<FlowItem, 'pk' | 'sk'>;

/** Shards of the due index per flow: the writes of one flow spread over this many partitions. */
export const DUE_SHARDS = 16;

/** `<flow>#<shard>`: the shard is a hash of the item's key, so one item always lands in the same shard. */
export function dueShardOf(flow: FlowName, key: FlowKey): string {
  const shard = createHash('sha256').update(`${key.pk}\u0000${key.sk}`).digest().readUInt32BE(0) % DUE_SHARDS;
  return `${flow}#${shard}`;
}

export const allDueShards = (flow: FlowName): string[] => Array.from({ length: DUE_SHARDS }, (_, shard) => `${flow}#${shard}`);

/** The delivery state of an item not settled yet; `relay`: its writer does not queue it, the stream does. */
export function dueState(flow: FlowName, key: FlowKey, dueAt: number, relay = false): Record<string, unknown> {
  return { flow, dueShard: dueShardOf(flow, key), dueAt, ...(relay ? { [RELAY_FLAG]: true } : {}) };
}

/** On an item whose writer does not queue it: the table's stream hands it to the relay. */
export const RELAY_FLAG = 'relay';

/** What a change of an item says: attributes to set, and whether it leaves the due index or moves in it. */
export interface FlowChange {
  set?: Record<string, unknown>;
  /**
   * the item's next due time (it stays due), or `settled` (it leaves the due index). Either way its
   * `relay` flag goes: whoever changes an item has its message in hand, so the relay has nothing to do.
   */
  due: number | 'settled';
  /** attributes that must hold these values for the change to apply (the item must exist, always) */
  expect?: Record<string, unknown>;
}

/** The store a flow needs: the table in the cloud and locally, a Map in the unit tests. */
export interface FlowStore {
  /** writes the item unless one with its key exists; whether it did */
  putIfAbsent(item: FlowItem): Promise<boolean>;
  /** applies the change while the item exists and `expect` holds; whether it did */
  change(key: FlowKey, change: FlowChange): Promise<boolean>;
  /** the items of one shard due before `before`, earliest first */
  dueBefore(shard: string, before: number, limit: number): Promise<FlowItem[]>;
}

/** An item from its image as the table's stream gives it (DynamoDB's attribute JSON). */
export const flowItemOfImage = (image: Record<string, unknown>): FlowItem => unmarshall(image as Record<string, AttributeValue>) as FlowItem;

export const tableFlowStore: FlowStore = {
  async putIfAbsent(item: FlowItem): Promise<boolean> {
    return writeIfConditionHolds(new PutCommand({ TableName: mainTableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  },

  async change(key: FlowKey, change: FlowChange): Promise<boolean> {
    return writeIfConditionHolds(new UpdateCommand({ TableName: mainTableName(), Key: { pk: key.pk, sk: key.sk }, ...flowUpdate(change) }));
  },

  async dueBefore(shard: string, before: number, limit: number): Promise<FlowItem[]> {
    const { Items = [] } = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        IndexName: DUE_INDEX.name,
        KeyConditionExpression: '#shard = :shard AND #dueAt < :before',
        ExpressionAttributeNames: { '#shard': DUE_INDEX.partitionKey, '#dueAt': DUE_INDEX.sortKey },
        ExpressionAttributeValues: { ':shard': shard, ':before': before },
        Limit: limit,
      }),
    );
    return Items as FlowItem[];
  },
};

/**
 * A flow change as an update's expression (for one write alone, or one item of a transaction): the
 * attributes set, the due time moved or the item settled (out of the due index), the relay flag gone,
 * under the item's existence and `expect`.
 */
export function flowUpdate(change: FlowChange): {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const names: Record<string, string> = { '#relay': RELAY_FLAG };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes = ['#relay'];
  for (const [index, [name, value]] of Object.entries(change.set ?? {}).entries()) {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    sets.push(`#s${index} = :s${index}`);
  }
  names['#dueAt'] = DUE_INDEX.sortKey;
  if (change.due === 'settled') {
    names['#dueShard'] = DUE_INDEX.partitionKey;
    removes.push('#dueShard', '#dueAt');
  } else {
    values[':dueAt'] = change.due;
    sets.push('#dueAt = :dueAt');
  }
  const conditions = ['attribute_exists(pk)'];
  for (const [index, [name, value]] of Object.entries(change.expect ?? {}).entries()) {
    names[`#e${index}`] = name;
    values[`:e${index}`] = value;
    conditions.push(`#e${index} = :e${index}`);
  }
  return {
    UpdateExpression: [sets.length > 0 ? `SET ${sets.join(', ')}` : '', `REMOVE ${removes.join(', ')}`].filter(Boolean).join(' '),
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}
