import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importModule, threadModule } from '../../shared/core/import-module.ts';

/** importModule (shared/core/import-module.ts): a module registered by a prebuilt bundle, else `import`. */
const REGISTRY = Symbol.for('ad-campaign-api.bundled-modules');
const registryOf = globalThis as { [REGISTRY]?: Record<string, () => Promise<unknown>> };
const clockUrl = pathToFileURL(new URL('../../shared/core/clock.ts', import.meta.url).pathname).href;

const THREADS = Symbol.for('ad-campaign-api.bundled-threads');
const threadsOf = globalThis as { [THREADS]?: Record<string, string> };

afterEach(() => {
  delete registryOf[REGISTRY];
  delete threadsOf[THREADS];
});

describe('importModule', () => {
  it('imports the module at the URL when no bundle registered it', async () => {
    const loaded = await importModule<{ clock: unknown }>(clockUrl);
    expect(loaded).toBe(await import('../../shared/core/clock.ts'));
  });

  it('takes the bundle’s copy of a module registered under its source URL, and imports any other', async () => {
    const bundled = { clock: 'the bundle’s one copy' };
    registryOf[REGISTRY] = { [clockUrl]: async () => bundled };
    expect(await importModule(clockUrl)).toBe(bundled);
    const other = pathToFileURL(new URL('../../shared/core/import-module.ts', import.meta.url).pathname).href;
    expect(await importModule<{ importModule: unknown }>(other)).toMatchObject({ importModule });
  });
});

describe('threadModule', () => {
  const source = new URL('file:///project/local/queue-thread.ts');
  it('is the thread’s own module when no bundle registered one', () => {
    expect(threadModule(source)).toBe(source);
  });
  it('is the bundle’s file of the thread when one was registered, and the module itself for any other', () => {
    threadsOf[THREADS] = { [source.href]: 'file:///cache/queue-thread.mjs' };
    expect(threadModule(source).href).toBe('file:///cache/queue-thread.mjs');
    const other = new URL('file:///project/local/dynalite-thread.ts');
    expect(threadModule(other)).toBe(other);
  });
});
