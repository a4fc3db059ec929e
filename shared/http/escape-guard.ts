import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The process-level guard: an error that escapes a request's promise chain (an 'error' event nobody
 * listens to, a throw in a timer callback, a rejection nobody awaits) fails that request alone, and
 * the process, the local gateway's or a Lambda runtime's, lives on.
 *
 * Written by hand: no library ties an uncaught error to the request whose async context raised it.
 * Node keeps the async context of the failing callback when it calls 'uncaughtException' listeners,
 * so the request's own `fail` is found in an AsyncLocalStorage. The listeners that were there before
 * (the Lambda runtime's, which report the error and exit) still get every error that belongs to no
 * request.
 */
type Fail = (error: unknown) => void;

const requestScope = new AsyncLocalStorage<Fail>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    type Listener = (error: unknown, ...rest: unknown[]) => void;
    const previous = process.listeners(event as 'uncaughtException') as Listener[];
    process.removeAllListeners(event);
    process.on(
      event as 'uncaughtException',
      ((error: unknown, ...rest: unknown[]) => {
        const fail = requestScope.getStore();
        if (fail) return fail(error);
        if (previous.length === 0) throw error; // what Node does with an error nobody listens for
        for (const listener of previous) listener(error, ...rest);
      }) as Listener,
    );
  }
}

/** Runs `work` so that any error escaping it rejects the returned promise instead of the process. */
export function guardEscapes<T>(work: () => Promise<T>): Promise<T> {
  install();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    requestScope.run(
      (error) => settle(() => reject(new EscapedError(error))),
      () => {
        work().then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => settle(() => reject(error)),
        );
      },
    );
  });
}

/** An error that escaped a request's promise chain; the envelope answers it as INTERNAL. */
export class EscapedError extends Error {
  readonly escaped: unknown;

  constructor(escaped: unknown) {
    super('An error escaped the request.');
    this.escaped = escaped;
    this.name = 'EscapedError';
  }
}
