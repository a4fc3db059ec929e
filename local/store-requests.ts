/**
 * The store requests the local stack's functions make, counted by operation at the store's front
 * (local/dynamo-transactions.ts): the leads benchmark reads them (`GET /__sandbox/store-requests`) to
 * report the requests one lead costs end to end.
 */
const counts = new Map<string, number>();

export function countStoreRequest(operation: string): void {
  counts.set(operation, (counts.get(operation) ?? 0) + 1);
}

/** Every count so far, by operation (GetItem, Query, TransactWriteItems …), and their total. */
export function storeRequestCounts(): { total: number; byOperation: Record<string, number> } {
  const byOperation = Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
  return { total: [...counts.values()].reduce((sum, count) => sum + count, 0), byOperation };
}

export function resetStoreRequestCounts(): void {
  counts.clear();
}
