/**
 * The local transaction front's locks (local/dynamo-transactions.ts), per item as DynamoDB's own
 * transactions isolate: a transaction holds the items it writes, alone; a plain call (a read, a single
 * write, a query) waits only for a transaction on what it touches, and runs beside every other plain
 * call. What a call touches is named as items, partitions (a query's) or a whole table (a scan, a query
 * on an index). Calls start in arrival order among those that touch the same thing, so a transaction
 * is not starved by the reads that keep coming.
 */
export interface Footprint {
  table: string;
  /** each item by its partition (`hash key value`) and its whole key */
  items: Array<{ partition: string; id: string }>;
  partitions: string[];
  /** the whole table (a scan, a query on an index) */
  whole: boolean;
}

interface Entry {
  exclusive: boolean;
  footprints: Footprint[];
  start(): void;
}

function touches(a: Footprint, b: Footprint): boolean {
  if (a.table !== b.table) return false;
  if (a.whole || b.whole) return true;
  const aPartitions = new Set([...a.partitions, ...a.items.map((item) => item.partition)]);
  const aItems = new Set(a.items.map((item) => item.id));
  return b.items.some((item) => aItems.has(item.id) || a.partitions.includes(item.partition)) || b.partitions.some((partition) => aPartitions.has(partition));
}

const conflict = (a: Entry, b: Entry) => (a.exclusive || b.exclusive) && a.footprints.some((x) => b.footprints.some((y) => touches(x, y)));

export class ItemLocks {
  private readonly active = new Set<Entry>();
  private readonly waiting: Entry[] = [];

  /** Runs `work` once nothing it conflicts with runs, or waits before it; `exclusive`: a transaction. */
  async run<T>(exclusive: boolean, footprints: Footprint[], work: () => Promise<T>): Promise<T> {
    const entry: Entry = { exclusive, footprints, start: () => undefined };
    if (this.blocked(entry, this.waiting.length)) await new Promise<void>((resolve) => this.waiting.push({ ...entry, start: resolve }));
    else this.active.add(entry);
    try {
      return await work();
    } finally {
      this.finish(entry);
    }
  }

  private blocked(entry: Entry, before: number): boolean {
    for (const held of this.active) if (conflict(held, entry)) return true;
    for (const earlier of this.waiting.slice(0, before)) if (conflict(earlier, entry)) return true;
    return false;
  }

  private finish(entry: Entry): void {
    for (const held of this.active) if (held.footprints === entry.footprints) this.active.delete(held);
    for (let index = 0; index < this.waiting.length; ) {
      const next = this.waiting[index] as Entry;
      if (this.blocked(next, index)) {
        index++;
        continue;
      }
      this.waiting.splice(index, 1);
      this.active.add(next);
      next.start();
    }
  }
}
