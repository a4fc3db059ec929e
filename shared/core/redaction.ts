import { config } from './config.ts';

/**
 * Credentials out of any text a platform wrote (docs/decisions.md, "Platform refusals carry no
 * secret"): the value after `access_token=`, `refresh_token=`, `client_secret=`, `code=` (and the
 * social `appsecret_proof=`), after `Bearer `, and every secret given or held by the service's apps,
 * each replaced by `[redacted]`. Written by hand: the redaction libraries found work on log records by
 * key, not on free text by the credential's shape and our own known secrets.
 */
export const REDACTED = '[redacted]';

// a value already redacted is left as it is: redacting twice changes nothing
const AFTER_NAME = /\b(access_token|refresh_token|client_secret|appsecret_proof|code)=(?!\[redacted\])([^\s&"',;)}\]]+)/gi;
const IN_JSON = /("(?:access_token|refresh_token|client_secret)"\s*:\s*")(?!\[redacted\]")([^"]+)/gi;
const BEARER = /\b(Bearer\s+)(?!\[redacted\])([^\s"',;)}\]]+)/gi;
/** a secret this short would match ordinary words: the patterns above still cover it where it is named */
const SHORTEST_SECRET = 8;

/** The secrets of our own apps: never in anything we pass on, whoever's call it was. */
export function appSecrets(): string[] {
  const { SOCIAL_APP_SECRET, SEARCHADS_CLIENT_SECRET, PROFESSIONAL_CLIENT_SECRET, SEARCHADS_DEVELOPER_TOKEN } = config();
  return [SOCIAL_APP_SECRET, SEARCHADS_CLIENT_SECRET, PROFESSIONAL_CLIENT_SECRET, SEARCHADS_DEVELOPER_TOKEN].filter((secret): secret is string => !!secret);
}

/** `text` without credentials: the named ones by their shape, `secrets` and our apps' secrets wherever they appear. */
export function redactCredentials(text: string, secrets: Iterable<string | undefined> = []): string {
  let redacted = text;
  for (const secret of [...secrets, ...appSecrets()]) {
    if (secret && secret.length >= SHORTEST_SECRET && redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted.replace(AFTER_NAME, `$1=${REDACTED}`).replace(IN_JSON, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
}

/** Every string of a value (objects and arrays walked, a few levels deep) without credentials. */
export function redactDeep<T>(value: T, secrets: Iterable<string | undefined> = [], depth = 4): T {
  if (typeof value === 'string') return redactCredentials(value, secrets) as T;
  if (depth === 0 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  const list = [...secrets];
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, list, depth - 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, list, depth - 1)])) as T;
}
