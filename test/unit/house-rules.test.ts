import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
    const citing = ['shared', 'functions', 'infra', 'local', 'test', 'bench']
      .flatMap(sourceFiles)
      .filter((file) => !file.endsWith('house-rules.test.ts') && outside.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length));
    expect(citing).toEqual([]);
  });

  it('the docs the code cites exist', () => {
    const cited = new Set<string>();
    for (const file of ['shared', 'functions', 'infra', 'local'].flatMap(sourceFiles)) {
      for (const [, doc] of readFileSync(file, 'utf8').matchAll(/docs\/([\w-]+\.md)/g)) cited.add(doc as string);
    }
    const present = new Set(readdirSync(join(root, 'docs')));
    expect([...cited].filter((doc) => !present.has(doc))).toEqual([]);
  });

  it('every folder of shared/, functions/ and local/ is under the layer rules', () => {
    const rules = (createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: Array<{ name: string; from: { pathNot?: string } }> })
      .forbidden;
    const layered = new RegExp(rules.find((rule) => rule.name === 'every-shared-file-has-a-layer')?.from.pathNot ?? '^$');
    const folders = (folder: string) =>
      readdirSync(join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    expect(folders('shared').filter((folder) => !layered.test(`shared/${folder}/x.ts`))).toEqual([]);
    // functions/: an operation's folder (its declaration), a worker's, or the use cases
    const operation = (folder: string) => existsSync(join(root, 'functions', folder, 'declaration.ts'));
    expect(folders('functions').filter((folder) => folder !== 'use-cases' && folder !== 'workers' && !operation(folder))).toEqual([]);
    expect(folders('functions/workers').filter((folder) => !operation(`workers/${folder}`))).toEqual([]);
    // the linter cruises exactly these folders; code anywhere else at the top would escape it
    const lint = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.lint as string;
    for (const folder of ['shared', 'functions', 'infra', 'local']) expect(lint).toMatch(new RegExp(`depcruise [^&]*\\b${folder}\\b`));
    const codeFolders = folders('.').filter((folder) => !folder.startsWith('.') && folder !== 'node_modules' && sourceFiles(folder).length > 0);
    expect(codeFolders.sort()).toEqual(['bench', 'functions', 'infra', 'local', 'samples', 'shared', 'test'].filter((folder) => codeFolders.includes(folder)));
  });
});
