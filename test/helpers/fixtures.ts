import { readFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';

/**
 * A recorded upstream body from test/fixtures, parsed. Dates in it are placeholders filled in from
 * today when the test builds it, so the fixture holds on any day: `{{DAY+1}}` is tomorrow (UTC,
 * `YYYY-MM-DD`), `{{DAY-10}}` ten days ago, `{{DAY}}` today.
 */
export function fixture(path: string): any {
  const text = readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
  return JSON.parse(fillDates(text));
}

export function fillDates(text: string): string {
  return text.replace(/\{\{DAY([+-]\d+)?\}\}/g, (_, offset: string | undefined) => clock.today(Number(offset ?? 0)));
}
