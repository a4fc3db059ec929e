import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { forEachContactRow } from '../shared/audiences/contact-file.ts';
import { sha256Hex } from '../shared/audiences/normalize.ts';
import { peakRssMb } from './peak-rss.ts';

/**
 * The audience pipeline benchmark: a CSV of contacts (email, phone, first name, last name, zip)
 * streamed from disk through parse, normalise and hash, beside the raw SHA-256 throughput of the
 * same normalised values. Each measurement runs in a fresh process (see bench/run.ts), so its
 * peak RSS is its own:
 *   node audience-pipeline.mjs write <file> <rows> | pipeline <file> | raw <rows>
 */
const FIRST = ['Mary-Ann', 'John', 'Amélie', 'Oliver', 'Sofía', 'Kenji', 'Priya', 'Lukas'];
const LAST = ["O'Brien", 'Doe', 'Durand', 'Smith', 'Rossi', 'Tanaka', 'Patel', 'Müller'];
const first = (index: number) => FIRST[index % FIRST.length] as string;
const last = (index: number) => LAST[(index >> 3) % LAST.length] as string;
const local = (index: number) => String(index % 10_000).padStart(4, '0');

/** Row `index` as written in the file: mixed case, spaces, punctuation, a national-looking phone. */
export function contactLine(index: number): string {
  return `  Person.${index}@Example.com ,+1 (415) 555-${local(index)},${first(index)},${last(index)},${94000 + (index % 1000)}-1234\n`;
}

/** The same row's values after normalisation: what the raw baseline hashes. */
function normalisedValues(index: number): string[] {
  const letters = (name: string) => name.normalize('NFC').toLowerCase().replace(/[^\p{L}]/gu, '');
  return [`person.${index}@example.com`, `1415555${local(index)}`, letters(first(index)), letters(last(index)), String(94000 + (index % 1000))];
}

async function write(file: string, rows: number) {
  const out = createWriteStream(file);
  let chunk = 'email,phone,first_name,last_name,zip\n';
  for (let index = 0; index < rows; index++) {
    chunk += contactLine(index);
    if (chunk.length >= 256 * 1024) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return { mode: 'write', rows };
}

async function pipeline(file: string) {
  let hashed = 0;
  const started = process.hrtime.bigint();
  await forEachContactRow(createReadStream(file, { highWaterMark: 256 * 1024 }), (row) => {
    if ('values' in row) hashed++;
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { mode: 'pipeline', rows: hashed, seconds, rowsPerSecond: hashed / seconds };
}

async function raw(rows: number) {
  const sample = Array.from({ length: Math.min(rows, 100_000) }, (_, index) => normalisedValues(index));
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < rows; index++) {
    for (const value of sample[index % sample.length] as string[]) sink += sha256Hex(value).length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sink === 0) throw new Error('nothing hashed');
  return { mode: 'raw', rows, seconds, rowsPerSecond: rows / seconds };
}

const [mode, target = '', count = '1000000'] = process.argv.slice(2);
if (mode) {
  const result = mode === 'write' ? await write(target, Number(count)) : mode === 'pipeline' ? await pipeline(target) : await raw(Number(target || count));
  console.log(JSON.stringify({ ...result, peakRssMb: peakRssMb() }));
}
