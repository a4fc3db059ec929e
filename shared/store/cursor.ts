import { InvalidRequest } from '../core/errors.ts';

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
