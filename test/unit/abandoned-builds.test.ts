import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeAbandonedBuilds } from '../../infra/bundling.ts';

/** removeAbandonedBuilds (infra/bundling.ts): a killed build's half-built folder goes; a live build's stays. */
const parent = mkdtempSync(join(tmpdir(), 'ad-api-builds-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('removeAbandonedBuilds', () => {
  it('removes the folders of builds whose process is gone, and keeps this process’s, a live one’s and any other folder', () => {
    const directory = join(parent, 'functions');
    const gone = `${directory}.building-2147483646`; // no process has this id (above the kernel's highest)
    const own = `${directory}.building-${process.pid}`;
    const live = `${directory}.building-${process.ppid}`;
    const unrelated = join(parent, 'functions-other.building-1');
    for (const folder of [directory, gone, own, live, unrelated]) mkdirSync(folder, { recursive: true });
    removeAbandonedBuilds(directory);
    expect([directory, gone, own, live, unrelated].map(existsSync)).toEqual([true, false, true, true, true]);
  });

  it('does nothing when the folder’s parent does not exist', () => {
    expect(() => removeAbandonedBuilds(join(parent, 'missing', 'functions'))).not.toThrow();
  });
});
