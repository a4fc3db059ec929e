import { Readable } from 'node:stream';
import { CsvError, Parser, type Options } from 'csv-parse';
import { InvalidRequest } from '../errors.ts';

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

function describe(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? `line ${line}` : 'the file';
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `The CSV has a quoted field that is never closed (it starts near ${where}); close the quote or remove it.`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `The CSV has a stray character after a closing quote at ${where}; quote the whole field or remove the quote.`;
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return `At ${where} the number of fields differs from the header's; every row needs the header's columns.`;
    case 'CSV_MAX_RECORD_SIZE':
      return `At ${where} a line is longer than ${MAX_LINE_BYTES / 1024} KB; is this a contact list?`;
    default:
      return `The CSV cannot be read at ${where}: ${error.code}.`;
  }
}

/**
 * Records of a CSV byte stream, header included, as they are parsed: each step yields every record
 * parsed so far, so a million rows cost a few hundred awaits, not a million. With `start`, the bytes
 * are the file from `start.byte` on (a ranged read), and records go on from `start.line`.
 */
export async function* readCsv(bytes: AsyncIterable<Uint8Array>, start?: CsvStart): AsyncGenerator<CsvRecords> {
  const text = utf8Text(bytes);
  let head = '';
  let delimiter = start?.delimiter;
  if (!delimiter) {
    // the first line decides the delimiter; it is read before the parser starts
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
  async function* all(): AsyncGenerator<string> {
    if (head) yield head;
    for await (const chunk of text) yield chunk;
  }
  const parser = new PositionedParser(
    // every line break, not only the first line's kind: a list pasted together from two exports keeps each row
    { delimiter, record_delimiter: ['\r\n', '\n', '\r'], bom: !start, skip_empty_lines: true, max_record_size: MAX_LINE_BYTES },
    start?.line ?? 0,
    start?.byte ?? 0,
  );
  const source = Readable.from(all());
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const records of recordBatches(parser)) yield { delimiter, records };
  } catch (error) {
    if (error instanceof CsvProblem) throw error;
    if (error instanceof CsvError) throw new CsvProblem(describe(error));
    throw error;
  } finally {
    source.destroy();
  }
}

/**
 * csv-parse's stream, each record pushed with its number and the byte just past it: the parser pushes
 * a record as soon as it has read the record's line break, so its count of bytes (UTF-8 bytes given to
 * it, a BOM included) is then exactly that (the per-record `info` option says the same, at the cost
 * of a dozen-field object per row).
 */
class PositionedParser extends Parser {
  constructor(
    options: Options,
    private line: number,
    private readonly bytesBefore: number,
  ) {
    super(options);
  }

  override push(cells: string[] | null): boolean {
    if (cells === null) return super.push(null);
    return super.push({ line: ++this.line, cells, endByte: this.bytesBefore + this.info.bytes } satisfies CsvRecord);
  }
}

/** Drains the parser's readable side batch by batch. */
async function* recordBatches(parser: PositionedParser): AsyncGenerator<CsvRecord[]> {
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  parser.on('readable', signal);
  parser.on('end', () => {
    ended = true;
    signal();
  });
  parser.on('error', (error) => {
    failure = error;
    signal();
  });
  for (;;) {
    const batch: CsvRecord[] = [];
    let record: CsvRecord | null;
    while ((record = parser.read() as CsvRecord | null) !== null) batch.push(record);
    if (batch.length > 0) yield batch;
    if (failure) throw failure;
    if (ended) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (failure || ended || parser.readableLength > 0) signal();
    });
  }
}
