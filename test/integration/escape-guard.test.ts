import { EventEmitter } from 'node:events';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { EscapedError, guardEscapes } from '../../shared/http/escape-guard.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';

describe('errors that escape a request', () => {
  it('an unhandled error event rejects that request alone; the process lives on', async () => {
    const escaping = guardEscapes(
      () =>
        new Promise<string>(() => {
          const emitter = new EventEmitter();
          setImmediate(() => emitter.emit('error', new Error('nobody listens')));
        }),
    );
    const healthy = guardEscapes(async () => 'fine');
    await expect(escaping).rejects.toBeInstanceOf(EscapedError);
    await expect(healthy).resolves.toBe('fine');
  });

  it('a throw in a timer callback of a handler becomes the INTERNAL envelope with the request id', async () => {
    const handler = defineOperation({
      declaration: { operation: 'get_profile' },
      request: z.object({ userId: z.string() }),
      user: false,
      run: () =>
        new Promise<object>(() => {
          setTimeout(() => {
            throw new Error('thrown where no promise catches it');
          }, 1);
        }),
    });
    const event = loadEvent('get-profile.valid');
    const response = await handler(event, lambdaContext());
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      results: { success: false, code: 'INTERNAL', error: 'An internal error occurred; it has been logged. Please retry later.' },
    });
    expect(response.headers['x-request-id']).toBe(event.requestContext.requestId);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
