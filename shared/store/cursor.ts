import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { InvalidRequest } from '../core/errors.ts';
import { documentStore } from './client.ts';

/**
 * The opaque `pagination` cursors of every listing: the sort key of the last item a page showed,
 * base64url JSON. A cursor is accepted only when its key has the listing's own shape, so a client
 * cannot steer a query elsewhere with one it made up.
 */
export const encodeCursor = (sk: string): string => Buffer.from(JSON.stringify({ before: sk })).toString('base64url');

export function decodeCursor(cursor: string, shape: RegExp): string {
  try {
    const { before } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown };
    if (typeof before === 'string' && shape.test(before)) return before;
  } catch {
    // answered below
  }
  throw new InvalidRequest('The pagination value was not issued by this API; send back results.paging.next as it was.', [
    { path: 'pagination', message: 'is not a cursor this operation gave' },
  ]);
}

/**
 * One page of a listing, newest first: `limit` items of the query (read on while a filter leaves
 * pages short), and the cursor of the next page when there is more.
 */
export async function newestFirstPage(
  query: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>,
  limit: number,
): Promise<{ items: Array<Record<string, unknown>>; next?: string }> {
  const found: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({ ...query, ScanIndexForward: false, Limit: limit + 1, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (found.length <= limit && start);
  const items = found.slice(0, limit);
  const last = items.at(-1);
  return { items, ...(found.length > limit && last ? { next: encodeCursor(String(last.sk)) } : {}) };
}
