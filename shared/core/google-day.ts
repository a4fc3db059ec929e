/**
 * Google's day: the search-ads platform's daily quotas reset at midnight Pacific time
 * (America/Los_Angeles, daylight saving included), not at midnight UTC.
 */
// made on first use: building a formatter for a time zone loads the zone's data, some 25 ms of a cold start
// of every search-ads function, most of which never asks Google's day
let pacific: Intl.DateTimeFormat | undefined;
const pacificFormat = (): Intl.DateTimeFormat =>
  (pacific ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }));

function pacificParts(nowMs: number): Record<string, number> {
  return Object.fromEntries(
    pacificFormat()
      .formatToParts(nowMs)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)]),
  );
}

/** The Pacific date of `nowMs`, `YYYY-MM-DD`: the day a daily quota counts in. */
export function googleDay(nowMs: number): string {
  const { year, month, day } = pacificParts(nowMs);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole seconds from `nowMs` until Google's next day begins, plus a minute's margin. */
export function secondsUntilGoogleDay(nowMs: number): number {
  const { hour = 0, minute = 0, second = 0 } = pacificParts(nowMs);
  return 86_400 - (hour * 3600 + minute * 60 + second) + 60;
}
