import { describe, expect, it } from 'vitest';
import { type Footprint, ItemLocks } from '../../local/item-locks.ts';

/** The local transaction front's locks (local/item-locks.ts): per item, as DynamoDB isolates a transaction. */
const item = (partition: string, id: string): Footprint => ({ table: 'main', items: [{ partition, id: `${partition}/${id}` }], partitions: [], whole: false });
const partition = (value: string): Footprint => ({ table: 'main', items: [], partitions: [value], whole: false });
const table: Footprint = { table: 'main', items: [], partitions: [], whole: true };

function gate() {
  let open = () => undefined as unknown;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open: () => open(), opened };
}

describe('the local transaction front’s item locks', () => {
  it('a transaction holds its items alone: a read of one of them waits, a read of another item runs beside it', async () => {
    const locks = new ItemLocks();
    const order: string[] = [];
    const held = gate();
    const transaction = locks.run(true, [item('A', '1')], async () => {
      order.push('transaction starts');
      await held.opened;
      order.push('transaction ends');
    });
    const sameItem = locks.run(false, [item('A', '1')], async () => order.push('read of A/1'));
    const otherItem = locks.run(false, [item('B', '1')], async () => order.push('read of B/1'));
    await otherItem;
    expect(order).toEqual(['transaction starts', 'read of B/1']);
    held.open();
    await Promise.all([transaction, sameItem]);
    expect(order).toEqual(['transaction starts', 'read of B/1', 'transaction ends', 'read of A/1']);
  });

  it('a query of a partition waits for a transaction on an item of it; a scan waits for any transaction on its table', async () => {
    const locks = new ItemLocks();
    const order: string[] = [];
    const held = gate();
    const transaction = locks.run(true, [item('A', '1')], async () => {
      await held.opened;
      order.push('transaction');
    });
    const query = locks.run(false, [partition('A')], async () => order.push('query of A'));
    const otherQuery = locks.run(false, [partition('B')], async () => order.push('query of B'));
    const scan = locks.run(false, [table], async () => order.push('scan'));
    await otherQuery;
    held.open();
    await Promise.all([transaction, query, scan]);
    expect(order).toEqual(['query of B', 'transaction', 'query of A', 'scan']);
  });

  it('a transaction waits for the calls in flight on its items, and is not passed by the reads that come after it', async () => {
    const locks = new ItemLocks();
    const order: string[] = [];
    const reading = gate();
    const firstRead = locks.run(false, [item('A', '1')], async () => {
      await reading.opened;
      order.push('first read');
    });
    const transaction = locks.run(true, [item('A', '1')], async () => order.push('transaction'));
    const laterRead = locks.run(false, [item('A', '1')], async () => order.push('later read'));
    reading.open();
    await Promise.all([firstRead, transaction, laterRead]);
    expect(order).toEqual(['first read', 'transaction', 'later read']);
  });

  it('plain calls never wait for each other, and two transactions on different items run side by side', async () => {
    const locks = new ItemLocks();
    const held = gate();
    const started: string[] = [];
    const slow = locks.run(true, [item('A', '1')], async () => {
      started.push('A');
      await held.opened;
    });
    await locks.run(true, [item('A', '2')], async () => started.push('A/2'));
    await Promise.all([1, 2, 3].map((n) => locks.run(false, [item('A', '2')], async () => started.push(`read ${n}`))));
    expect(started).toEqual(['A', 'A/2', 'read 1', 'read 2', 'read 3']);
    held.open();
    await slow;
  });
});
