import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { documentedRoutes } from '../../functions/routes.ts';
import { ERROR_TABLE_DOCUMENTS, withErrorTable } from '../../infra/docs.ts';
import { ERROR_CODES, ERROR_TABLE, errorStatuses } from '../../shared/core/error-table.ts';
import { buildOpenApiDocument } from '../../shared/docs/openapi.ts';

/**
 * The error table is declared once (shared/core/error-table.ts). The README's and docs/errors.md's
 * tables are written from it, and the OpenAPI document's error rows are built from it, each status
 * allowing only its own codes: a code answered at a status the declaration does not give it fails the
 * stack tests, whose every answer is held to the document.
 */
const document = buildOpenApiDocument(documentedRoutes) as {
  components: { responses: Record<string, { content: { 'application/json': { schema: object } } }> };
};

describe('the error table', () => {
  for (const path of ERROR_TABLE_DOCUMENTS) {
    it(`${path} shows the declared table (npm run docs writes it)`, () => {
      const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
      expect(text).toBe(withErrorTable(text));
    });
  }

  it('every HTTP error row of the document lists exactly the codes the table gives its status', () => {
    for (const row of ERROR_TABLE.filter((entry) => entry.http !== null && entry.http >= 400)) {
      const { status, codes } = errorStatuses().find((entry) => entry.status === String(row.http)) ?? { status: '', codes: [] };
      expect(document.components.responses[`Error${status}`], String(row.http)).toBeDefined();
      for (const code of row.codes) expect(codes, `${code} at ${row.http}`).toContain(code);
    }
    expect(errorStatuses().find((entry) => entry.status === '400')?.codes).toEqual([
      'INVALID_REQUEST',
      'UNSUPPORTED_MEDIA',
      'DESTINATION_NOT_FOUND',
      'STAGE_NOT_MAPPED',
      'UNSUPPORTED_LEVEL',
      'UNSUPPORTED_BREAKDOWN',
    ]);
  });

  it('a code the table does not give a status fails the document’s schema for that status', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, validateSchema: false });
    ajv.addSchema(document as object, 'openapi');
    const error400 = ajv.compile({ $ref: 'openapi#/components/schemas/ErrorEnvelope400' });
    const answer = (code: string) => ({ success: false, results: { success: false, code, error: 'x' } });
    expect(error400(answer('UNSUPPORTED_MEDIA'))).toBe(true);
    expect(error400(answer('CONFLICT'))).toBe(false);
    expect(error400(answer('NOT_A_DECLARED_CODE'))).toBe(false);
  });

  it('names every code once, and each in at least one row', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(ERROR_TABLE.some((row) => (row.codes as readonly string[]).includes(code))).toBe(true);
  });
});
