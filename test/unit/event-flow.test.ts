import { describe, expect, it } from 'vitest';
import { EventFlow, type FlowDefinition } from '../../shared/flows/event-flow.ts';
import { DUE_SHARDS, dueShardOf, flowItemOfImage } from '../../shared/store/flow-items.ts';
import { flowUpdate } from '../../shared/store/flow-items.ts';
import { FakeFlowQueue, FakeFlowStore } from '../helpers/fakes.ts';

/**
 * The event flow (shared/flows/event-flow.ts) on fakes: an item written once and queued once, whatever
 * crashes between two steps, whatever is sent twice, whatever message is lost. A run of the flow's
 * worker is stood in for by `work`: it settles the item, as every flow's worker does when it is done.
 */
const LEASE = 60_000;
const definition: FlowDefinition<{ id: string }> = {
  name: 'webhooks',
  queue: 'WebhookDeliveries',
  messageOf: (item) => ({ id: String(item.id) }),
  groupOf: (item) => String(item.tenantId),
  leaseMs: () => LEASE,
};

function world() {
  const store = new FakeFlowStore();
  const queue = new FakeFlowQueue();
  let now = 1_000_000;
  const flow = new EventFlow(definition, { store, queue, now: () => now });
  const key = { pk: 'TENANT#t1#WEBHOOKS', sk: 'EVENT#0000000000001#msg_1' };
  const stored = () => store.items.get(`${key.pk}|${key.sk}`);
  return { store, queue, flow, key, stored, pass: (ms: number) => (now += ms), now: () => now };
}

describe('the event flow', () => {
  it('writes an item once with its delivery state, in one shard of its flow, and queues its small message with its group', async () => {
    const { flow, queue, key, stored } = world();
    expect(await flow.admit(key, { id: 'msg_1', tenantId: 't1' })).toBe(true);
    expect(stored()).toMatchObject({ ...key, flow: 'webhooks', dueShard: dueShardOf('webhooks', key), dueAt: 1_000_000 + LEASE });
    expect(stored()?.relay).toBeUndefined();
    expect(queue.sent).toEqual([{ queue: 'WebhookDeliveries', message: { id: 'msg_1' }, groupId: 't1' }]);
  });

  it('a duplicate (a replay, a retry of the writer) writes and queues nothing', async () => {
    const { flow, queue, key, stored } = world();
    await flow.admit(key, { id: 'msg_1', tenantId: 't1' });
    expect(await flow.admit(key, { id: 'msg_1', tenantId: 't1', other: 'value' })).toBe(false);
    expect(stored()?.other).toBeUndefined();
    expect(queue.sent).toHaveLength(1);
  });

  it('a lost message (the send failed): the sweep queues the item once its lease is over, not before, and once', async () => {
    const { flow, queue, key, pass } = world();
    queue.lose = 1;
    expect(await flow.admit(key, { id: 'msg_1', tenantId: 't1' })).toBe(true);
    expect(queue.sent).toHaveLength(0);
    expect(await flow.sweep()).toBe(0);
    pass(LEASE + 1);
    expect(await flow.sweep()).toBe(1);
    expect(await flow.sweep()).toBe(0); // a new lease: the next sweep leaves it to the message just sent
    expect(queue.sent).toEqual([{ queue: 'WebhookDeliveries', message: { id: 'msg_1' }, groupId: 't1' }]);
  });

  it('a crash between the write and the send: the item is due, and the sweep queues it', async () => {
    const { flow, queue, store, key, stored, pass } = world();
    store.failNextWrites(1);
    await expect(flow.admit(key, { id: 'msg_1', tenantId: 't1' })).rejects.toThrow('died');
    expect(stored()).toBeDefined();
    expect(queue.sent).toHaveLength(0);
    pass(LEASE + 1);
    expect(await flow.sweep()).toBe(1);
    expect(queue.sent).toHaveLength(1);
  });

  it('a crash between the work and the settle: the message comes back (or the sweep queues it), and the settle ends it', async () => {
    const { flow, queue, store, key, stored, pass } = world();
    await flow.admit(key, { id: 'msg_1', tenantId: 't1' });
    store.failNextWrites(1);
    await expect(flow.settle(key, { set: { status: 'delivered' } })).rejects.toThrow('died'); // applied, but the worker never heard
    expect(stored()?.dueShard).toBeUndefined();
    pass(LEASE + 1);
    expect(await flow.sweep()).toBe(0); // settled: never queued again
    expect(queue.sent).toHaveLength(1);
  });

  it('a worker killed before it settled: the sweep queues the item again after its lease, and a repeated settle changes nothing', async () => {
    const { flow, queue, key, stored, pass } = world();
    await flow.admit(key, { id: 'msg_1', tenantId: 't1', status: 'pending' });
    pass(LEASE + 1);
    expect(await flow.sweep()).toBe(1);
    expect(await flow.settle(key, { set: { status: 'delivered' }, expect: { status: 'pending' } })).toBe(true);
    expect(await flow.settle(key, { set: { status: 'delivered' }, expect: { status: 'pending' } })).toBe(false);
    expect(stored()).toMatchObject({ status: 'delivered' });
    expect(queue.sent).toHaveLength(2);
  });

  it('an attempt that must be tried again stays due at its time; a stale attempt (its expectation no longer holds) changes nothing', async () => {
    const { flow, key, stored, pass } = world();
    await flow.admit(key, { id: 'msg_1', tenantId: 't1', attempts: 0 });
    expect(await flow.dueAgainAt(key, 5_000_000, { set: { attempts: 1 }, expect: { attempts: 0 } })).toBe(true);
    expect(await flow.dueAgainAt(key, 9_000_000, { set: { attempts: 1 }, expect: { attempts: 0 } })).toBe(false);
    expect(stored()).toMatchObject({ attempts: 1, dueAt: 5_000_000 });
    pass(LEASE * 10);
    expect(stored()?.dueShard).toBeDefined();
  });

  it('an item its writer left to the relay: the relay queues it once, and a second image of it (the stream again) nothing', async () => {
    const { flow, queue, store, key, stored } = world();
    const item = flow.item(key, { id: 'msg_1', tenantId: 't1' }, { relay: true });
    expect(item.relay).toBe(true);
    await store.putIfAbsent(item);
    await flow.relay(item);
    await flow.relay(item);
    expect(stored()?.relay).toBeUndefined();
    expect(queue.sent).toHaveLength(1);
  });

  it('a relay that dies between its change and its send leaves the item due: the sweep queues it', async () => {
    const { flow, queue, store, key, pass } = world();
    const item = flow.item(key, { id: 'msg_1', tenantId: 't1' }, { relay: true });
    await store.putIfAbsent(item);
    queue.lose = 1;
    await expect(flow.relay(item)).rejects.toThrow('did not take');
    pass(LEASE + 1);
    expect(await flow.sweep()).toBe(1);
    expect(queue.sent).toHaveLength(1);
  });

  it('spreads items over every shard of the flow', () => {
    const shards = new Set(Array.from({ length: 2_000 }, (_, index) => dueShardOf('inbound', { pk: `PLATFORM_WEBHOOK#social#${index}`, sk: 'BODY' })));
    expect(shards.size).toBe(DUE_SHARDS);
  });
});

describe('the flow’s table writes', () => {
  it('a settle removes the delivery state under the item’s existence and the expectations', () => {
    expect(flowUpdate({ set: { status: 'delivered' }, due: 'settled', expect: { attempts: 2 } })).toEqual({
      UpdateExpression: 'SET #s0 = :s0 REMOVE #relay, #dueShard, #dueAt',
      ConditionExpression: 'attribute_exists(pk) AND #e0 = :e0',
      ExpressionAttributeNames: { '#relay': 'relay', '#s0': 'status', '#dueAt': 'dueAt', '#dueShard': 'dueShard', '#e0': 'attempts' },
      ExpressionAttributeValues: { ':s0': 'delivered', ':e0': 2 },
    });
  });

  it('a move sets the next due time and drops the relay flag', () => {
    expect(flowUpdate({ due: 42 })).toEqual({
      UpdateExpression: 'SET #dueAt = :dueAt REMOVE #relay',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#relay': 'relay', '#dueAt': 'dueAt' },
      ExpressionAttributeValues: { ':dueAt': 42 },
    });
  });

  it('reads an item from its stream image', () => {
    expect(flowItemOfImage({ pk: { S: 'a' }, sk: { S: 'b' }, relay: { BOOL: true }, dueAt: { N: '5' } })).toEqual({ pk: 'a', sk: 'b', relay: true, dueAt: 5 });
  });
});
