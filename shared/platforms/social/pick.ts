/**
 * Copies the named fields that the platform sent, and only those: a field the platform omitted is
 * omitted here too, never filled with an invented value.
 */
export function pickPresent<K extends string>(source: Record<string, unknown>, fields: readonly K[]): Partial<Record<K, unknown>> {
  const picked: Partial<Record<K, unknown>> = {};
  for (const field of fields) {
    const value = source[field];
    if (value !== undefined && value !== null) picked[field] = value;
  }
  return picked;
}
