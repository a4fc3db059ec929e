import type * as classic from 'zod';
import * as z from 'zod/mini';
import { PLATFORMS } from '../core/errors.ts';

/**
 * Identifiers we store and put in keys and storage paths: letters, digits and . _ : @ -, no separators of
 * our own key scheme, no slash or control character, and not `.` or `..` (a path segment of their own).
 */
export const userIdSchema = z.string().check(
  z.minLength(1),
  z.maxLength(128),
  z.regex(/^[A-Za-z0-9._:@-]+$/, 'must contain only letters, digits and . _ : @ -'),
  z.refine((value) => value !== '.' && value !== '..', 'must not be . or ..'),
  z.describe('The user the operation acts for, as created with create_user.'),
);

export const paginationSchema = z
  ._default(z.string().check(z.maxLength(2048)), '')
  .check(z.describe('Opaque cursor from a previous response’s results.paging.next or .previous; empty for the first page.'));

/** An instant with its offset (what a schedule takes). */
export const instantSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time with an offset, such as YYYY-MM-DDT09:00:00-08:00' });

/** An https address a platform sends people to, at most `max` characters. */
export const httpsUrlSchema = (max: number) => z.url({ protocol: /^https$/, error: 'must be an https URL' }).check(z.maxLength(max));

export const dateSchema = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in YYYY-MM-DD format'),
  z.refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'must be a real calendar date'),
);

/** Digits only; an optional `prefix` (such as `act_`) or dashes are accepted and removed. */
export function numericIdSchema(what: string, options: { prefix?: string; dashes?: boolean; digits?: number; requiredMessage?: string } = {}) {
  const { requiredMessage } = options;
  const given = z.string(requiredMessage ? { error: (issue) => (issue.input === undefined ? requiredMessage : undefined) } : undefined).check(z.trim());
  const bare = z.pipe(
    given,
    z.transform((value: string) => {
      let id = options.prefix && value.startsWith(options.prefix) ? value.slice(options.prefix.length) : value;
      if (options.dashes) id = id.replaceAll('-', '');
      return id;
    }),
  );
  return z.pipe(
    bare,
    options.digits
      ? z.string().check(z.regex(new RegExp(`^\\d{${options.digits}}$`), `${what} must be ${options.digits} digits`))
      : z.string().check(z.regex(/^\d{1,32}$/, `${what} must be a numeric id`)),
  );
}

export const secretSchema = z.string().check(z.minLength(1), z.maxLength(4096));

/** A platform's name, as every request and answer spells it. */
export const platformSchema = z.enum(PLATFORMS);

/**
 * The error of a union of shapes (exactly one of two fields, a purpose and its type): `message` when
 * the body is an object that fits none, or what it is when it is no object at all.
 */
export const shapeError =
  (message: string) =>
  (issue: { input?: unknown }): string => {
    const { input } = issue;
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) return message;
    return `Invalid input: expected object, received ${input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input}`;
  };

/** What a request of these fields is once validated (the operation's own schema, in its folder, is built from them). */
export type Output<Shape extends classic.ZodRawShape> = classic.output<classic.ZodObject<Shape>>;
