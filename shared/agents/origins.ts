/**
 * The Origin check of /mcp against DNS rebinding (docs/agents.md): a request with no Origin header (an
 * agent's own HTTP client) passes; a browser's passes only from one of the tenant's `allowedOrigins`, or,
 * under `npm start`, from a loopback address on any port. The SDK transport's own check takes an exact
 * list and skips an empty one, which would let every origin through for a tenant that set none.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function originAllowed(origin: string | undefined, allowedOrigins: readonly string[], allowLoopback: boolean): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  if (!allowLoopback) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
  } catch {
    return false;
  }
}
