import { log } from '../core/logger.ts';
import type { QueueId } from '../core/queues.ts';
import { allDueShards, dueState, type FlowChange, type FlowItem, type FlowKey, type FlowName, type FlowStore } from '../store/flow-items.ts';

/**
 * The event flow (docs/architecture.md, "The event flow"): one primitive for everything that arrives
 * or leaves as a stream of items (inbound platform bodies, webhook events, conversions). An item is
 * written once, by a conditional put on its natural key, and carries its own delivery state: while it
 * is not settled it has `dueShard` and `dueAt`, which put it in the table's due index. The writer
 * queues its message; when it cannot (it writes inside another's transaction and leaves the queuing
 * to the table's stream) it flags the item `relay`, and the relay queues it. An item still in the due
 * index after `dueAt` lost its message (a crash between the write and the send, a dead letter): the
 * sweep queues it again. The worker settles it when done, or moves `dueAt` to its next attempt.
 */
export interface FlowDefinition<Message> {
  name: FlowName;
  queue: QueueId;
  /** the message that goes on the queue for an item: small, what the worker needs, never personal data */
  messageOf(item: FlowItem): Message;
  /** a queue message group (a tenant), where the flow's queue is a fair queue */
  groupOf?(item: FlowItem): string | undefined;
  /** how long a queued item may stay unsettled before the sweep takes its message for lost */
  leaseMs(): number;
}

export interface FlowQueue {
  send(queue: QueueId, message: unknown, options: { groupId?: string }): Promise<void>;
}

/** What a flow's operations run on: its store, its queue and a clock (fakes in the unit tests). */
export interface FlowPorts {
  store: FlowStore;
  queue: FlowQueue;
  now(): number;
}

/** How many due items one sweep queues again per shard, at most (the next sweep takes the rest). */
const SWEEP_LIMIT = 100;

/**
 * The operations of one flow (the header above says what they keep true). Every step is safe to repeat and to
 * cut short: a crash between any two leaves the item due, and the sweep or the relay takes it on.
 */
export class EventFlow<Message> {
  readonly definition: FlowDefinition<Message>;
  private readonly ports: FlowPorts;

  constructor(definition: FlowDefinition<Message>, ports: FlowPorts) {
    this.definition = definition;
    this.ports = ports;
  }

  /**
   * The item as it is written: its attributes with its delivery state, due one lease from now (its
   * message is on its way). `relay`: the writer will not queue it; the table's stream does.
   */
  item(key: FlowKey, attributes: Record<string, unknown>, { relay = false }: { relay?: boolean } = {}): FlowItem {
    return { ...attributes, ...key, ...dueState(this.definition.name, key, this.ports.now() + this.definition.leaseMs(), relay) };
  }

  /** Writes the item once (false: one with its key was written before, nothing is written or queued), then queues it. */
  async admit(key: FlowKey, attributes: Record<string, unknown>): Promise<boolean> {
    const item = this.item(key, attributes);
    if (!(await this.ports.store.putIfAbsent(item))) return false;
    await this.announce(item);
    return true;
  }

  /** Queues the message of an item written (alone or in a transaction); a failed send is left to the sweep. */
  async announce(item: FlowItem): Promise<void> {
    await this.send(item).catch((error: unknown) =>
      log().warn('an item was stored but not queued; the sweep queues it', { flow: this.definition.name, reason: (error as Error).name }),
    );
  }

  /** Done with the item: it leaves the due index (with `set` applied, while `expect` holds). */
  settle(key: FlowKey, change: Omit<FlowChange, 'due'> = {}): Promise<boolean> {
    return this.ports.store.change(key, { ...change, due: 'settled' });
  }

  /** The item stays due, next at `dueAt` (with `set` applied, while `expect` holds). */
  dueAgainAt(key: FlowKey, dueAt: number, change: Omit<FlowChange, 'due'> = {}): Promise<boolean> {
    return this.ports.store.change(key, { ...change, due: dueAt });
  }

  /**
   * Queues again every item whose due time has passed (its message was lost), shard by shard: each is
   * given a new lease first, so a sweep that overlaps another, or a crash after the change, queues it
   * at most once more.
   */
  async sweep(): Promise<number> {
    const now = this.ports.now();
    let requeued = 0;
    for (const shard of allDueShards(this.definition.name)) {
      for (const item of await this.ports.store.dueBefore(shard, now, SWEEP_LIMIT)) {
        if (!(await this.dueAgainAt(item, now + this.definition.leaseMs(), { expect: { dueAt: item.dueAt } }))) continue;
        await this.send(item);
        requeued++;
      }
    }
    if (requeued > 0) log().warn('due items queued again', { flow: this.definition.name, requeued });
    return requeued;
  }

  /**
   * The relay of an item its writer did not queue (the table's stream hands it here): its flag goes
   * first (the stream's next image of it is not handed here again), with a new lease, then its message.
   * A crash between the two leaves it due: the sweep queues it.
   */
  async relay(item: FlowItem): Promise<void> {
    if (!(await this.dueAgainAt(item, this.ports.now() + this.definition.leaseMs(), { expect: { relay: true } }))) return;
    await this.send(item);
  }

  private send(item: FlowItem): Promise<void> {
    const groupId = this.definition.groupOf?.(item);
    return this.ports.queue.send(this.definition.queue, this.definition.messageOf(item), groupId ? { groupId } : {});
  }
}
