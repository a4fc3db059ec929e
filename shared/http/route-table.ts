/**
 * Matching a request to a route by method and path, for whoever holds the table: the local gateway
 * (every declaration) and the catch-all function (the table as configuration, ROUTE_TABLE).
 */
export interface RouteKey {
  method: string;
  path: string;
}

/** A route path as a pattern: `{name}` matches one non-empty path segment. */
function pathPattern(path: string): RegExp {
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}$`);
}

/** A path segment as API Gateway hands it over: percent-decoded, or as it came when it does not decode. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const patterns = new WeakMap<RouteKey, RegExp>();
const patternOf = (route: RouteKey) => patterns.get(route) ?? (patterns.set(route, pathPattern(route.path)).get(route) as RegExp);

/** The route for a request, its path parameters, and the methods its path allows (for 405). */
export function matchRoute<T extends RouteKey>(
  table: readonly T[],
  method: string,
  path: string,
): { route?: T; allowed: string[]; pathParameters?: Record<string, string> } {
  const samePath = table
    .map((route) => ({ route, match: patternOf(route).exec(path) }))
    .filter((candidate): candidate is { route: T; match: RegExpExecArray } => candidate.match !== null);
  const chosen = samePath.find(({ route }) => route.method === method);
  const pathParameters = chosen?.match.groups
    ? Object.fromEntries(Object.entries(chosen.match.groups).map(([name, value]) => [name, decodedSegment(value)]))
    : undefined;
  return { route: chosen?.route, allowed: samePath.map(({ route }) => route.method), ...(pathParameters ? { pathParameters } : {}) };
}

/** The table as one configuration value: `METHOD path` pairs, comma-separated. */
export const encodeRouteTable = (table: readonly RouteKey[]) => table.map((route) => `${route.method} ${route.path}`).join(',');

export function decodeRouteTable(text: string): RouteKey[] {
  return text
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [method = '', path = ''] = pair.split(' ');
      return { method, path };
    });
}
