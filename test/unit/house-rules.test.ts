import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The code cites only what a maintainer has: the repository's own docs (docs/), never the design
 * notes or upstream contracts it was written from.
 */
const root = new URL('../../', import.meta.url).pathname;
const sourceFiles = (folder: string): string[] =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));

describe('house rules', () => {
  it('no source file cites a document outside the repository', () => {
    const outside = /DESIGN\.md|STYLE\.md|SPEC\.md|\bcontracts\/|contract (social|searchads|professional|connect|control)\.md|[Cc]ontract §/;
    const citing = ['shared', 'functions', 'infra', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((file) => !file.endsWith('house-rules.test.ts') && outside.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length));
    expect(citing).toEqual([]);
  });

  it('the docs the code cites exist', () => {
    const cited = new Set<string>();
    for (const file of ['shared', 'functions', 'infra'].flatMap(sourceFiles)) {
      for (const [, doc] of readFileSync(file, 'utf8').matchAll(/docs\/([\w-]+\.md)/g)) cited.add(doc as string);
    }
    const present = new Set(readdirSync(join(root, 'docs')));
    expect([...cited].filter((doc) => !present.has(doc))).toEqual([]);
  });
});
