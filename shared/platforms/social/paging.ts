import { InvalidRequest } from '../../core/errors.ts';

/**
 * docs/decisions.md "Pagination": `results.paging = {next?, previous?}`, opaque strings the client sends back
 * as `pagination`. They carry the platform's cursor only, never its `paging.next` URL (which embeds
 * the user's access token); the adapter rebuilds the upstream request itself.
 */
export interface GraphPaging {
  cursors?: { before?: string; after?: string };
  next?: string;
  previous?: string;
}

export interface Paging {
  next?: string;
  previous?: string;
}

const CURSOR = /^[A-Za-z0-9+/=_-]{1,2048}$/;

/** The cursor parameter (`after` or `before`) that a client's `pagination` value stands for. */
export function cursorParams(pagination: string): { after?: string; before?: string } {
  if (pagination === '') return {};
  const [direction, cursor] = [pagination.slice(0, pagination.indexOf(':')), pagination.slice(pagination.indexOf(':') + 1)];
  if ((direction === 'after' || direction === 'before') && CURSOR.test(cursor)) return { [direction]: cursor };
  throw new InvalidRequest('pagination must be empty or a value from results.paging.next or results.paging.previous.', [
    { path: 'pagination', message: 'unrecognised pagination value' },
  ]);
}

function cursorFromUrl(url: string | undefined, name: 'after' | 'before'): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `next` only when the platform gave `paging.next` (its one reliable "more" signal); likewise `previous`. */
export function toPaging(paging: GraphPaging | undefined): Paging {
  if (!paging) return {};
  const after = paging.next ? (paging.cursors?.after ?? cursorFromUrl(paging.next, 'after')) : undefined;
  const before = paging.previous ? (paging.cursors?.before ?? cursorFromUrl(paging.previous, 'before')) : undefined;
  return {
    ...(after && CURSOR.test(after) ? { next: `after:${after}` } : {}),
    ...(before && CURSOR.test(before) ? { previous: `before:${before}` } : {}),
  };
}
