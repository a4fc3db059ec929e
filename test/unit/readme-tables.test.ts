import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { ERROR_CODES } from '../../shared/core/errors.ts';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/tenant-values.ts';

/**
 * The README's route and error tables are kept by hand for people to read; these tests hold them equal
 * to the route table (the operation folders) and to the error codes, so a new operation or code that
 * the README does not name fails here.
 */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The paths the Operations table names: `/a/b`, `/{x,y}/b` (each x and y), and `c` after `/a/b` (a sibling `/a/c`). */
function readmePaths(): string[] {
  const paths: string[] = [];
  for (const row of readme.split('\n').filter((line) => line.startsWith('| `/'))) {
    const cell = row.split('|')[1] as string;
    let folder = '';
    for (const [, name] of cell.matchAll(/`([^`]+)`/g)) {
      const braces = /^\/\{([^}]+)\}(\/.+)$/.exec(name as string);
      if (braces) {
        for (const part of (braces[1] as string).split(',')) paths.push(`/${part}${braces[2]}`);
      } else if ((name as string).startsWith('/')) {
        paths.push(name as string);
        folder = (name as string).slice(0, (name as string).lastIndexOf('/'));
      } else paths.push(`${folder}/${name}`);
    }
  }
  return paths.sort();
}

describe('the README', () => {
  it('names every operation of the API in its Operations table, and no other', () => {
    const operations = routes.filter((route) => !route.public && !route.browser && !route.inbound).map((route) => route.path);
    expect(readmePaths()).toEqual([...operations].sort());
  });

  it('names every error code in its error table', () => {
    const table = readme.slice(readme.indexOf('## Envelope and errors'), readme.indexOf('## API keys'));
    for (const code of ERROR_CODES) expect(table, code).toContain(code);
  });

  it('the webhooks walk-through names every event type a webhook can receive', () => {
    const walkthroughs = readFileSync(new URL('../../docs/walkthroughs.md', import.meta.url), 'utf8');
    const section = walkthroughs.slice(walkthroughs.indexOf('## Webhooks'), walkthroughs.indexOf('```', walkthroughs.indexOf('## Webhooks')));
    for (const type of [...WEBHOOK_EVENT_TYPES, 'webhook.test']) expect(section, type).toContain(`\`${type}\``);
  });
});
