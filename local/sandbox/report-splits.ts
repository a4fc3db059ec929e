/**
 * How the sandboxes break a seeded figure down (docs/reports.md, "In the sandboxes"): a count is split
 * by fixed weights, each share rounded down and the rest given to the last, so that the parts always
 * add up to the whole: a campaign's day to its ad sets and ads, any of them to a breakdown's values.
 * Money is split in minor units the same way. The platforms' own figures need not add up; the
 * sandboxes' do, so that a test can check every level and breakdown against the seeded totals.
 */
export function splitCount(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((all, weight) => all + weight, 0);
  const parts = weights.map((weight) => Math.floor((total * weight) / sum));
  parts[parts.length - 1] = total - parts.slice(0, -1).reduce((all, part) => all + part, 0);
  return parts;
}

/** A decimal string of major units split like a count, in minor units of `decimals` digits. */
export function splitMoney(amount: string, weights: readonly number[], decimals: number): string[] {
  const minor = Math.round(Number(amount) * 10 ** decimals);
  return splitCount(minor, weights).map((part) => (part / 10 ** decimals).toFixed(decimals));
}

/** Each child's weight: the first two thirds more than the next, and so on (3, 2, 1, 1, …). */
export const childWeights = (count: number) => Array.from({ length: count }, (_, index) => Math.max(1, 3 - index));
