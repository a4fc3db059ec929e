import { describe, expect, it } from 'vitest';
import { googleDay, secondsUntilGoogleDay } from '../../shared/core/google-day.ts';

/** Google's day (its daily quotas) begins at midnight Pacific time, daylight saving included; days far from today. */
describe('Google’s day', () => {
  it('is the Pacific date, not the UTC one', () => {
    expect(googleDay(Date.parse('2031-01-15T07:59:59Z'))).toBe('2031-01-14'); // 23:59:59 PST
    expect(googleDay(Date.parse('2031-01-15T08:00:00Z'))).toBe('2031-01-15');
    expect(googleDay(Date.parse('2031-07-15T06:59:59Z'))).toBe('2031-07-14'); // 23:59:59 PDT
    expect(googleDay(Date.parse('2031-07-15T07:00:00Z'))).toBe('2031-07-15');
  });

  it('the wait until the next day, plus a minute, in standard and in daylight time', () => {
    expect(secondsUntilGoogleDay(Date.parse('2031-01-15T07:00:00Z'))).toBe(3_600 + 60);
    expect(secondsUntilGoogleDay(Date.parse('2031-07-15T06:00:00Z'))).toBe(3_600 + 60);
    expect(secondsUntilGoogleDay(Date.parse('2031-01-15T08:00:00Z'))).toBe(86_400 + 60);
  });
});
