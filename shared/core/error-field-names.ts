/**
 * The fields an error's answer may carry beside `success`, `error` and `code`. Their names are all the
 * envelope needs at run time, so they stand here apart from their schemas (shared/schemas/error-fields.ts,
 * which the OpenAPI document reads): a function's bundle then carries no error field's schema. The
 * schemas' record is typed by these names, so a name without a schema, or a schema without a name, does
 * not compile.
 */
export const ERROR_FIELD_NAMES = [
  'details',
  'platform',
  'platformCode',
  'platformSubcode',
  'platformStatus',
  'serviceErrorCode',
  'fieldPath',
  'requestId',
  'fbtraceId',
  'minimum',
  'budgetIs',
  'sharedWith',
  'scope',
  'campaignIds',
  'runningJobId',
  'limit',
  'retryAfter',
  'share',
  'proposal',
  'destinationId',
  'supported',
  'audienceId',
  'session_id',
  'rows_landed',
  'rows_total',
] as const;
export type ErrorField = (typeof ERROR_FIELD_NAMES)[number];

const answered: ReadonlySet<string> = new Set(ERROR_FIELD_NAMES);

/** Only the declared fields of a failure's extras, as the answer shows them. */
export function answeredErrorFields(extra: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extra).filter(([key]) => answered.has(key)));
}
