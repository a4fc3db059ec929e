import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { forEachContactRow } from '../shared/audiences/contact-file.ts';
import { sha256Hex } from '../shared/audiences/normalize.ts';
import { contactLayout } from '../shared/audiences/contact-rows.ts';
import { readCsv } from '../shared/audiences/csv-reader.ts';
import { googleLayout, googleMember } from '../shared/audiences/google-members.ts';
import { RepeatedCells } from '../shared/audiences/repeated-cells.ts';
import { peakRssMb } from './peak-rss.ts';

/**
 * The audience pipeline benchmark: a CSV of contacts (email, phone, first name, last name, zip)
 * streamed from disk through parse, normalise and hash, beside the raw SHA-256 throughput of the
 * same normalised values. Each measurement runs in a fresh process (see bench/run.ts), so its
 * peak RSS is its own:
 *   node audience-pipeline.mjs write <file> <rows> [distinct] [quoted] [country] | pipeline <file> | raw <rows> [distinct]
 *                              | google <file> | google-members <rows> | google-raw <rows>
 * `google` reads a file written with `country` (a US column: the address Google takes needs it) into
 * Customer Match members by Google's rules; `google-members` does the same on rows already split into
 * cells (normalise and hash alone); `google-raw` hashes the same normalised values (email, phone with
 * its +, both names; country and zip are sent in clear).
 * The list repeats first and last names (8 of each) and zip codes (1,000) as lists of people do;
 * `distinct` gives every row a name and zip of its own (up to 90,000 zips), the worst case for the
 * cells the pipeline remembers; `quoted` puts every field in quotes, as some exports do.
 */
const FIRST = ['Mary-Ann', 'John', 'Amélie', 'Oliver', 'Sofía', 'Kenji', 'Priya', 'Lukas'];
const LAST = ["O'Brien", 'Doe', 'Durand', 'Smith', 'Rossi', 'Tanaka', 'Patel', 'Müller'];
/** the row number in letters (0 → a, 27 → bb): a name no other row has */
const lettersOf = (index: number) => {
  let letters = '';
  do {
    letters += String.fromCharCode(97 + (index % 26));
    index = Math.floor(index / 26);
  } while (index > 0);
  return letters;
};
const first = (index: number, distinct: boolean) => (distinct ? `Ann-${lettersOf(index)}` : (FIRST[index % FIRST.length] as string));
const last = (index: number, distinct: boolean) => (distinct ? `Mül${lettersOf(index)}` : (LAST[(index >> 3) % LAST.length] as string));
const zip = (index: number, distinct: boolean) => (distinct ? 10_000 + (index % 90_000) : 94_000 + (index % 1000));
const local = (index: number) => String(index % 10_000).padStart(4, '0');

/** Row `index` as written in the file: mixed case, spaces, punctuation, a national-looking phone. */
export function contactLine(index: number, distinct = false): string {
  return `  Person.${index}@Example.com ,+1 (415) 555-${local(index)},${first(index, distinct)},${last(index, distinct)},${zip(index, distinct)}-1234\n`;
}

/** The same row's values after normalisation: what the raw baseline hashes. */
function normalisedValues(index: number, distinct: boolean): string[] {
  const letters = (name: string) =>
    name
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}]/gu, '');
  return [
    `person.${index}@example.com`,
    `1415555${local(index)}`,
    letters(first(index, distinct)),
    letters(last(index, distinct)),
    String(zip(index, distinct)),
  ];
}

/** A line with every field in quotes, as some exports write them (no field here holds a quote). */
const quoted = (line: string) => `"${line.slice(0, -1).split(',').join('","')}"\n`;

async function write(file: string, rows: number, variant: { distinct: boolean; quoted: boolean; country: boolean }) {
  const out = createWriteStream(file);
  const header = variant.country ? 'email,phone,first_name,last_name,zip,country\n' : 'email,phone,first_name,last_name,zip\n';
  let chunk = variant.quoted ? quoted(header) : header;
  for (let index = 0; index < rows; index++) {
    const line = variant.country ? `${contactLine(index, variant.distinct).slice(0, -1)},US\n` : contactLine(index, variant.distinct);
    chunk += variant.quoted ? quoted(line) : line;
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

async function google(file: string) {
  let members = 0;
  const started = process.hrtime.bigint();
  let layout: ReturnType<typeof googleLayout> | undefined;
  const repeated = new RepeatedCells();
  for await (const step of readCsv(createReadStream(file, { highWaterMark: 256 * 1024 }))) {
    for (const record of step.records) {
      if (!layout) {
        layout = googleLayout(contactLayout(record.cells));
        continue;
      }
      if ('identifiers' in googleMember(record.cells, layout, sha256Hex, repeated)) members++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { mode: 'google', rows: members, seconds, rowsPerSecond: members / seconds };
}

/** Google's normalisation and hashing alone, on rows already split into cells (the `raw` pair's very values, as written). */
async function googleMembers(rows: number) {
  const layout = googleLayout(contactLayout(['email', 'phone', 'first_name', 'last_name', 'zip', 'country']));
  const sample = Array.from({ length: Math.min(rows, 100_000) }, (_, index) => [...contactLine(index, false).slice(0, -1).split(','), 'US']);
  const repeated = new RepeatedCells();
  let members = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < rows; index++)
    if ('identifiers' in googleMember(sample[index % sample.length] as string[], layout, sha256Hex, repeated)) members++;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (members !== rows) throw new Error('a row without a member');
  return { mode: 'google-members', rows, seconds, rowsPerSecond: rows / seconds };
}

async function googleRaw(rows: number) {
  const sample = Array.from({ length: Math.min(rows, 100_000) }, (_, index) => {
    const [email, phone, given, family] = normalisedValues(index, false) as [string, string, string, string];
    return [email, `+${phone}`, given, family];
  });
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < rows; index++) for (const value of sample[index % sample.length] as string[]) sink += sha256Hex(value).length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sink === 0) throw new Error('nothing hashed');
  return { mode: 'google-raw', rows, seconds, rowsPerSecond: rows / seconds };
}

async function raw(rows: number, distinct: boolean) {
  const sample = Array.from({ length: Math.min(rows, 100_000) }, (_, index) => normalisedValues(index, distinct));
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < rows; index++) {
    for (const value of sample[index % sample.length] as string[]) sink += sha256Hex(value).length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (sink === 0) throw new Error('nothing hashed');
  return { mode: 'raw', rows, seconds, rowsPerSecond: rows / seconds };
}

// run as a script (its bundle), not when another benchmark imports its rows
const [mode, target = '', ...rest] = process.argv.slice(2);
if (mode && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distinct = rest.includes('distinct');
  const result =
    mode === 'write'
      ? await write(target, Number(rest[0]), { distinct, quoted: rest.includes('quoted'), country: rest.includes('country') })
      : mode === 'pipeline'
        ? await pipeline(target)
        : mode === 'google'
          ? await google(target)
          : mode === 'google-members'
            ? await googleMembers(Number(target))
            : mode === 'google-raw'
              ? await googleRaw(Number(target))
              : await raw(Number(target), distinct);
  console.log(JSON.stringify({ ...result, peakRssMb: peakRssMb() }));
}
