import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importModule } from '../../shared/core/import-module.ts';

/** importModule (shared/core/import-module.ts): a module registered by a prebuilt bundle, else `import`. */
const REGISTRY = Symbol.for('ad-campaign-api.bundled-modules');
const registryOf = globalThis as { [REGISTRY]?: Record<string, () => Promise<unknown>> };
const clockUrl = pathToFileURL(new URL('../../shared/core/clock.ts', import.meta.url).pathname).href;

afterEach(() => {
  delete registryOf[REGISTRY];
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
