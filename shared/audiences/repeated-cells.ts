import type { ContactKey } from '../platforms/social/contact-keys.ts';
import type { RowContext } from './normalize.ts';

/** Keys whose values repeat down a list: names, places, birth dates, gender, country. */
const REPEATING_KEYS: ReadonlySet<ContactKey> = new Set(['FN', 'LN', 'FI', 'CT', 'ST', 'ZIP', 'COUNTRY', 'GEN', 'DOBY', 'DOBM', 'DOBD']);
/** keys whose rules depend on the row's country */
const BY_COUNTRY: ReadonlySet<ContactKey> = new Set(['ST', 'ZIP']);

/**
 * What the cells of the keys that repeat down a list gave, remembered for one read of a file. Down a
 * list of a million people the same first names, surnames, places, birth dates and genders come back
 * again and again; a cell written as one before is neither normalised nor hashed again (hashing is
 * most of a list's cost). Cells are remembered as written, column by column, and for zip and state,
 * whose rules depend on the row's country, with the country. At most `capacity` cells a column
 * (2,048 take about 0.35 MB); past it a cell is worked out each time, and a column whose cells then
 * come back less than one time in four is no longer looked up (a lookup that misses costs about a
 * third of what one that hits saves). E-mails, phone numbers and ids, one a person, are never kept.
 */
export class RepeatedCells {
  private readonly columns = new Map<ContactKey, RememberedColumn>();

  /** `sample`: lookups of a full column over which its hits are counted */
  private readonly capacity: number;
  private readonly sample: number;

  constructor(capacity = 2048, sample = 4096) {
    this.capacity = capacity;
    this.sample = sample;
  }

  /** Whether a column's cells are worth remembering. */
  static repeats(key: ContactKey): boolean {
    return REPEATING_KEYS.has(key);
  }

  get(key: ContactKey, cell: string, context: RowContext): string | undefined {
    const column = this.columns.get(key);
    if (!column || column.givenUp) return undefined;
    const value = column.cells.get(BY_COUNTRY.has(key) ? withCountry(cell, context) : cell);
    if (column.cells.size >= this.capacity) {
      column.lookups++;
      if (value !== undefined) column.hits++;
      if (column.lookups === this.sample) {
        column.givenUp = column.hits * 4 < this.sample;
        column.lookups = column.hits = 0;
      }
    }
    return value;
  }

  set(key: ContactKey, cell: string, context: RowContext, value: string): void {
    let column = this.columns.get(key);
    if (!column) {
      column = { cells: new Map(), lookups: 0, hits: 0, givenUp: false };
      this.columns.set(key, column);
    }
    if (column.cells.size < this.capacity) column.cells.set(ownCopy(BY_COUNTRY.has(key) ? withCountry(cell, context) : cell), value);
  }
}

interface RememberedColumn {
  cells: Map<string, string>;
  /** lookups and hits since the column filled up, or since the last sample */
  lookups: number;
  hits: number;
  givenUp: boolean;
}

/** The country, none for a row without one, then NUL: no cell can pass for another country's. */
const withCountry = (cell: string, context: RowContext) => `${context.country ?? ''}\u0000${cell}`;

/**
 * The cell in a string of its own. A cell is a slice of the whole piece of the file read with it:
 * kept as it is, one remembered cell would keep that piece (tens to hundreds of KB) alive, thousands
 * of them gigabytes. Joining it to a character and slicing that off again makes V8 copy it out.
 */
const ownCopy = (cell: string) => ` ${cell}`.slice(1);
