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
