import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../functions/routes.ts';
import { buildOpenApiDocument } from '../../shared/docs/openapi.ts';

/** The project is open source under the Apache License 2.0, and says so everywhere a buyer's review looks. */
describe('licence', () => {
  const root = new URL('../../', import.meta.url);
  it('LICENSE, package.json and the OpenAPI document agree: Apache-2.0', () => {
    expect(readFileSync(new URL('LICENSE', root), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    expect(JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).license).toBe('Apache-2.0');
    const info = (buildOpenApiDocument(documentedRoutes) as { info: { license: unknown } }).info;
    expect(info.license).toEqual({ name: 'Apache License 2.0', identifier: 'Apache-2.0' });
  });
});
