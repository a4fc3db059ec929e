import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

/**
 * Structured JSON logs. Callers log ids, codes and counts: never bodies, headers, tokens, keys or
 * contact values. Every line written while a request is served carries its request id and operation;
 * they live in async-local storage because the local gateway serves many requests in one process at
 * once. (One shared logger and per-request keys: a Powertools child logger per request costs ~45 µs.)
 */
// made at the first line logged, not at import: configuration is read once, after whoever starts the process has set it
let root: Logger | undefined;
const rootLogger = () => {
  root ??= new Logger({ serviceName: 'ad-campaign-api', logLevel: config().LOG_LEVEL });
  return root;
};

type Attributes = Record<string, unknown>;
export interface RequestLog {
  debug(message: string, attributes?: Attributes): void;
  info(message: string, attributes?: Attributes): void;
  warn(message: string, attributes?: Attributes): void;
  error(message: string, attributes?: Attributes): void;
}

function logWith(keys: Attributes): RequestLog {
  return {
    debug: (message, attributes) => rootLogger().debug(message, { ...keys, ...attributes }),
    info: (message, attributes) => rootLogger().info(message, { ...keys, ...attributes }),
    warn: (message, attributes) => rootLogger().warn(message, { ...keys, ...attributes }),
    error: (message, attributes) => rootLogger().error(message, { ...keys, ...attributes }),
  };
}

const outsideRequests = logWith({});
const requestScope = new AsyncLocalStorage<RequestLog>();

/** The log of the request being served (no request keys outside a request). */
export function log(): RequestLog {
  return requestScope.getStore() ?? outsideRequests;
}

export function withRequestLogger<T>(keys: Record<string, string>, work: () => Promise<T>): Promise<T> {
  return requestScope.run(logWith(keys), work);
}
