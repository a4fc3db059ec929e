import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../config.ts';

/**
 * Structured JSON logs. Callers log ids, codes and counts: never bodies, headers, tokens, keys or
 * contact values. Each request gets a child logger carrying its request id; it lives in async-local
 * storage because the local gateway serves many requests in one process at once.
 */
const rootLogger = new Logger({
  serviceName: 'ad-campaign-api',
  logLevel: config().LOG_LEVEL,
});

const requestScope = new AsyncLocalStorage<Logger>();

/** The logger of the request being served (the root logger outside a request). */
export function log(): Logger {
  return requestScope.getStore() ?? rootLogger;
}

export function withRequestLogger<T>(keys: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return requestScope.run(rootLogger.createChild({ persistentKeys: keys }), work);
}
