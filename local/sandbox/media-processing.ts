/**
 * How a sandbox processes an account's next media, as a test sets it: `seconds` of processing, an
 * `error` it fails with, and how long the next upload lives (`lifetimeField`: the social session's
 * `sessionSeconds`, the professional URLs' `urlSeconds`), for that one upload only.
 */
export type MediaProcessing<L extends string> = { seconds: number; error?: string } & Partial<Record<L, number>>;

/** The settings a control request sent, or undefined when a value is not one the sandbox takes. */
export function mediaProcessingOf<L extends string>(fields: Record<string, unknown>, defaultSeconds: number, lifetimeField: L): MediaProcessing<L> | undefined {
  const seconds = fields.seconds === undefined ? defaultSeconds : Number(fields.seconds);
  const lifetime = fields[lifetimeField] === undefined ? undefined : Number(fields[lifetimeField]);
  if (
    !Number.isFinite(seconds) ||
    seconds < 0 ||
    (fields.error !== undefined && typeof fields.error !== 'string') ||
    (lifetime !== undefined && !(lifetime >= 0))
  )
    return undefined;
  return {
    seconds,
    ...(typeof fields.error === 'string' ? { error: fields.error } : {}),
    ...(lifetime !== undefined ? { [lifetimeField]: lifetime } : {}),
  } as MediaProcessing<L>;
}

/** What the refusal of a bad control request says: the fields it takes. */
export const mediaProcessingUsage = (key: string, lifetimeField: string) =>
  `send {${key}, seconds? (≥ 0), error? (a message: processing fails with it), ${lifetimeField}? (≥ 0)}`;
