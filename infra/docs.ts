import { readFileSync, writeFileSync } from 'node:fs';
import { errorTableMarkdown } from '../shared/core/error-table.ts';

/**
 * `npm run docs`: writes the tables made from one declaration into the documents that show them: the
 * error table (shared/core/error-table.ts) into the README and docs/errors.md, between their markers.
 * test/unit/error-table.test.ts fails when a written table differs from the declaration.
 */
export const ERROR_TABLE_DOCUMENTS = ['README.md', 'docs/errors.md'];
export const START = '<!-- error-table: written by `npm run docs` from shared/core/error-table.ts -->';
export const END = '<!-- /error-table -->';

export function withErrorTable(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error('the document has no error-table markers');
  return `${text.slice(0, start + START.length)}\n${errorTableMarkdown()}\n${text.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of ERROR_TABLE_DOCUMENTS) writeFileSync(path, withErrorTable(readFileSync(path, 'utf8')));
}
