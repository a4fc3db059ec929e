import { CsvError, parse } from 'csv-parse/sync';
import { InvalidRequest } from '../core/errors.ts';

/**
 * Streams a CSV into records: UTF-8 checked, BOM dropped, CRLF, LF or CR (mixed too), quoted fields, and the
 * delimiter (`,` `;` or tab) taken from the first line. Every problem is a 400 whose sentence names
 * it and its line, so a person can fix the file.
 */
export const MAX_LINE_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t'] as const;

export class CsvProblem extends InvalidRequest {
  constructor(sentence: string) {
    super(sentence, [{ path: 'file', message: sentence }]);
  }
}

export interface CsvRecord {
  /** 1-based record number, the header being 1: the row number a spreadsheet shows */
  line: number;
  cells: string[];
  /** the file's byte offset just past the record, its line break included: where a later read can start */
  endByte: number;
}

/** What the parser yields at each step: the records parsed so far, and the delimiter it reads with. */
export interface CsvRecords {
  delimiter: string;
  records: CsvRecord[];
}

/** Where a read picks up a file read before: a record's `endByte`, its `line`, the delimiter then found. */
export interface CsvStart {
  byte: number;
  line: number;
  delimiter: string;
}

/** UTF-8 text chunks of the byte stream; binary content fails here, before any parsing. */
async function* utf8Text(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a BOM reaches the parser, which drops it and counts its bytes
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new CsvProblem('The file is not UTF-8 text; save the CSV as UTF-8 and upload it again.');
    }
  };
  for await (const chunk of bytes) {
    const text = decode(chunk);
    if (text.includes('\u0000')) throw new CsvProblem('The file contains binary data (NUL bytes); upload a CSV text file.');
    if (text) yield text;
  }
  const rest = decode();
  if (rest) yield rest;
}

/** The delimiter that occurs most often outside quotes in the first line (comma when none does). */
export function detectDelimiter(firstLine: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((delimiter) => [delimiter, 0]));
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

function describe(error: CsvError, line: number): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `The CSV has a quoted field that is never closed (it starts at line ${line}); close the quote or remove it.`;
    case 'INVALID_OPENING_QUOTE':
      return `The CSV has a quote inside an unquoted field at line ${line}; quote the whole field or remove the quote.`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `The CSV has a stray character after a closing quote at line ${line}; quote the whole field or remove the quote.`;
    default:
      return `The CSV cannot be read at line ${line}: ${error.code}.`;
  }
}

const tooLong = (line: number, quoted: boolean) =>
  new CsvProblem(
    quoted
      ? `At line ${line} a quoted field goes on past ${MAX_LINE_BYTES / 1024} KB; is a quote there never closed?`
      : `At line ${line} a line is longer than ${MAX_LINE_BYTES / 1024} KB; is this a contact list?`,
  );

/**
 * Records of a CSV byte stream, header included, as they are parsed: each step yields up to 256
 * records, so a million rows cost a few thousand awaits, not a million.
 * With `start`, the bytes are the file from `start.byte` on (a ranged read), and records go on
 * from `start.line`.
 */
export async function* readCsv(bytes: AsyncIterable<Uint8Array>, start?: CsvStart): AsyncGenerator<CsvRecords> {
  const text = utf8Text(bytes);
  let head = '';
  let delimiter = start?.delimiter;
  if (!delimiter) {
    // the first line decides the delimiter; it is read before any record is cut
    let next = await text.next();
    while (!next.done) {
      head += next.value;
      if (/[\r\n]/.test(head) || head.length > MAX_LINE_BYTES) break;
      next = await text.next();
    }
    const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? '';
    if (firstLine.length > MAX_LINE_BYTES) {
      throw new CsvProblem(`The first line is longer than ${MAX_LINE_BYTES / 1024} KB; is this a contact list?`);
    }
    delimiter = detectDelimiter(firstLine.replace(/^\uFEFF/, ''));
  }
  const splitter = new CsvSplitter(delimiter, start);
  async function* pieces(): AsyncGenerator<string> {
    if (head) yield head;
    yield* text;
  }
  function* cut(): Generator<CsvRecords> {
    for (let records = splitter.take(RECORDS_A_STEP); records.length > 0; records = splitter.take(RECORDS_A_STEP))
      yield { delimiter: splitter.delimiter, records };
  }
  for await (const piece of pieces()) {
    splitter.write(piece);
    yield* cut();
  }
  splitter.end();
  yield* cut();
}

const RECORDS_A_STEP = 256;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every ASCII character, control characters included
const NON_ASCII = /[^\x00-\x7f]/;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const NONE_LEFT = -2;
const nextIndex = (text: string, char: string, from: number) => {
  const at = text.indexOf(char, from);
  return at < 0 ? NONE_LEFT : at;
};

/**
 * Cuts CSV text into records as it arrives, each with its number and the byte just past it. Line
 * breaks are CRLF, LF or CR, mixed in one file too (a list pasted together from two exports keeps
 * each row); empty lines are skipped; every record has the first record's number of fields; a BOM
 * at the start of the file is dropped (its bytes counted).
 *
 * A record without a quote character, nearly every record of a contact list, is its line split at
 * the delimiter: RFC 4180 makes nothing else of it. A record holding a quote is found whole by its
 * quoting (a quoted field may hold delimiters and line breaks) and its quoted fields unquoted; one
 * quoted against the rules goes to csv-parse, whose errors name the fault. A property test holds the
 * whole to csv-parse's reading of any text. Written by hand because no CSV parser we tried is both strict
 * and fast: csv-parse reads about 45 MB/s and has no faster mode; papaparse 5.7, uDSV 0.7 and
 * csv-simple-parser 2.0 all take `a@exa"mple.com` as a value without a word, uDSV and
 * csv-simple-parser read `"a@example.com"x,1` as `x` and `a@example.com` without one; and none of
 * them gives the byte offset of each record that resuming a job from its checkpoint needs.
 */
class CsvSplitter {
  /** the text given and not yet cut into records, from `from` on */
  private text = '';
  private from = 0;
  private ascii = true;
  /** no more text will come: what is left is the last record */
  private ended = false;
  /** the next LF, CR and quote at or after `from`, searched for again only once passed */
  private lf = -1;
  private cr = -1;
  private quote = -1;
  /** records read so far */
  private records: number;
  /** the file's byte offset of `text[from]` */
  private bytes: number;
  /** the number of fields of the first record, which every record must have */
  private width = -1;
  private atFileStart: boolean;

  readonly delimiter: string;

  constructor(delimiter: string, start?: CsvStart) {
    this.delimiter = delimiter;
    this.records = start?.line ?? 0;
    this.bytes = start?.byte ?? 0;
    this.atFileStart = !start;
  }

  /** The next piece of text, cut by `take`. */
  write(piece: string): void {
    this.text = this.from < this.text.length ? this.text.slice(this.from) + piece : piece;
    this.from = 0;
    this.lf = this.cr = this.quote = -1;
    this.ascii = !NON_ASCII.test(this.text);
    if (this.atFileStart && this.text.length > 0) {
      this.atFileStart = false;
      if (this.text.charCodeAt(0) === 0xfeff) {
        this.from = 1;
        this.bytes += 3;
      }
    }
  }

  /** No more text: `take` then gives the last record, which may end without a line break (or an unclosed quote, reported then). */
  end(): void {
    this.ended = true;
  }

  /**
   * Up to `max` records the text completes, none when it needs more text. Taken a few at a time, records
   * are handled while young: a whole piece's worth held at once outlives the young generation.
   */
  take(max: number): CsvRecord[] {
    const out: CsvRecord[] = [];
    const { text, delimiter } = this;
    let from = this.from;
    while (from < text.length && out.length < max) {
      if (this.lf !== NONE_LEFT && this.lf < from) this.lf = nextIndex(text, '\n', from);
      if (this.cr !== NONE_LEFT && this.cr < from) this.cr = nextIndex(text, '\r', from);
      if (this.quote !== NONE_LEFT && this.quote < from) this.quote = nextIndex(text, '"', from);
      const { lf, cr, quote } = this;
      const lineBreak = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      const quoted = quote >= 0 && (lineBreak < 0 || quote < lineBreak);
      let end = quoted ? quotedRecordEnd(text, from, delimiter) : lineBreak;
      if (end < 0) {
        if (!this.ended) break;
        end = text.length;
      }
      let breakLength = 0;
      if (end < text.length) {
        if (text.charCodeAt(end) === CR) {
          if (end + 1 === text.length && !this.ended) break; // the LF of a CRLF may open the next piece
          breakLength = text.charCodeAt(end + 1) === LF ? 2 : 1;
        } else breakLength = 1;
      }
      const line = text.slice(from, end);
      from = end + breakLength;
      if (line.length === 0) {
        this.bytes += breakLength;
        continue;
      }
      const size = this.ascii ? line.length : Buffer.byteLength(line);
      if (size > MAX_LINE_BYTES) throw tooLong(this.records + 1, quoted);
      const cells = quoted ? (quotedCells(line, delimiter) ?? this.parseQuoted(line)) : line.split(delimiter);
      this.records++;
      this.bytes += size + breakLength;
      if (this.width < 0) this.width = cells.length;
      else if (cells.length !== this.width) {
        throw new CsvProblem(`At line ${this.records} the number of fields differs from the header's; every row needs the header's columns.`);
      }
      out.push({ line: this.records, cells, endByte: this.bytes });
    }
    this.from = from;
    if (out.length === 0 && text.length - from > MAX_LINE_BYTES) throw tooLong(this.records + 1, text.includes('"', from));
    return out;
  }

  /** A record `quotedCells` could not read, by csv-parse: the fault its error names, or its cells should it take them after all. */
  private parseQuoted(record: string): string[] {
    let parsed: string[][];
    try {
      parsed = parse(record, { delimiter: this.delimiter, record_delimiter: ['\r\n', '\n', '\r'] });
    } catch (error) {
      if (error instanceof CsvError) throw new CsvProblem(describe(error, this.records + 1));
      throw error;
    }
    if (parsed.length !== 1) throw new CsvProblem(`The CSV cannot be read at line ${this.records + 1}; check its quotes.`);
    return parsed[0] as string[];
  }
}

/**
 * The cells of a record holding quotes, as RFC 4180 reads it: a quoted field runs to its closing quote,
 * `""` in it being one quote; an unquoted field to the next delimiter. Undefined for a quote RFC 4180
 * does not allow (never closed, inside an unquoted field, or a closing quote followed by anything but
 * a delimiter), whose fault csv-parse then names.
 */
function quotedCells(record: string, delimiter: string): string[] | undefined {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (record.charCodeAt(at) === QUOTE) {
      let value = '';
      let from = at + 1;
      for (;;) {
        const close = record.indexOf('"', from);
        if (close < 0) return undefined;
        if (record.charCodeAt(close + 1) === QUOTE) {
          value += record.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        value += record.slice(from, close);
        at = close + 1;
        break;
      }
      cells.push(value);
      if (at === record.length) return cells;
      if (record[at] !== delimiter) return undefined;
      at++;
      continue;
    }
    const next = record.indexOf(delimiter, at);
    const cell = next < 0 ? record.slice(at) : record.slice(at, next);
    if (cell.includes('"')) return undefined;
    cells.push(cell);
    if (next < 0) return cells;
    at = next + 1;
  }
}

/**
 * Where a record holding a quote ends: at its first line break outside a quoted field, or -1 when
 * the text ends first. A quote RFC 4180 does not allow (inside an unquoted field, or a closing quote
 * followed by anything but a delimiter, a line break or another quote) ends the record at the next
 * line break, for csv-parse to name the fault.
 */
function quotedRecordEnd(text: string, from: number, delimiter: string): number {
  const nextLineBreak = (at: number) => {
    for (; at < text.length; at++) if (text.charCodeAt(at) === LF || text.charCodeAt(at) === CR) return at;
    return -1;
  };
  let at = from;
  for (;;) {
    if (text.charCodeAt(at) === QUOTE) {
      let close = at;
      for (;;) {
        close = text.indexOf('"', close + 1);
        if (close < 0 || close + 1 === text.length) return -1; // what follows the quote is not here yet
        if (text.charCodeAt(close + 1) !== QUOTE) break;
        close++; // "" is a quote inside the field
      }
      at = close + 1;
      const next = text.charCodeAt(at);
      if (text[at] === delimiter) at++;
      else if (next === LF || next === CR) return at;
      else return nextLineBreak(at);
      continue;
    }
    let stop = at;
    for (; stop < text.length; stop++) {
      const char = text.charCodeAt(stop);
      if (char === LF || char === CR || char === QUOTE || text[stop] === delimiter) break;
    }
    if (stop === text.length) return -1;
    if (text.charCodeAt(stop) === QUOTE) return nextLineBreak(stop);
    if (text[stop] === delimiter) at = stop + 1;
    else return stop;
  }
}
