/**
 * A module by its file URL, for what is found by path at run time (the operations' declarations and
 * handlers): `import(url)`, unless the process runs from a prebuilt bundle of the local stack (the tests'
 * child stacks and admin runs, docs/testing.md), which registered those modules under their source URLs,
 * so each shares the bundle's one copy of whatever it imports (the stack's clock, its configuration).
 */
const BUNDLED_MODULES = Symbol.for('ad-campaign-api.bundled-modules');

export function importModule<T>(url: string): Promise<T> {
  const bundled = (globalThis as { [BUNDLED_MODULES]?: Record<string, () => Promise<unknown>> })[BUNDLED_MODULES]?.[url];
  return (bundled ? bundled() : import(url)) as Promise<T>;
}

const BUNDLED_THREADS = Symbol.for('ad-campaign-api.bundled-threads');

/** A worker thread's module (an emulator's): the prebuilt bundle's file of it, when the process runs from one that built it, else `url`. */
export function threadModule(url: URL): URL {
  const bundled = (globalThis as { [BUNDLED_THREADS]?: Record<string, string> })[BUNDLED_THREADS]?.[url.href];
  return bundled ? new URL(bundled) : url;
}
