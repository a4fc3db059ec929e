/**
 * Money, exactly: amounts are decimal strings in major units and are converted with integer
 * arithmetic (BigInt), never through floating point. Each platform counts a currency in its own unit
 * (docs/platforms.md, "Money"): the social platform in minor units by its own offset table, search ads
 * in micros that must be a multiple of the currency's billable unit, the professional platform in
 * major-unit decimal strings with the currency's ISO 4217 decimals.
 */
export interface Money {
  /** major units, with exactly the currency's decimals on its platform ("75.00", "7500") */
  amount: string;
  currency: string;
}

/** A positive major-unit amount as a client may write it: digits, optionally a point and more digits. */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,11})(\.\d{1,6})?$/;

/** How many decimals an amount is written with ("75" → 0, "75.50" → 2). */
export function decimalsIn(amount: string): number {
  return amount.split('.')[1]?.length ?? 0;
}

/**
 * The amount in units of 10^-decimals (75.5 at 2 decimals → 7550n), or undefined when it has more
 * decimals than that (only zeros beyond them are accepted: "75.500" at 2 decimals is 7550n).
 */
export function toUnits(amount: string, decimals: number): bigint | undefined {
  if (!AMOUNT_PATTERN.test(amount)) return undefined;
  const [whole = '0', fraction = ''] = amount.split('.');
  const kept = fraction.slice(0, decimals);
  if (/[^0]/.test(fraction.slice(decimals))) return undefined;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(kept.padEnd(decimals, '0') || '0');
}

/** Units of 10^-decimals as a major-unit string with exactly that many decimals (7550n, 2 → "75.50"). */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? '' : `.${digits.slice(-decimals)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** ISO 4217 currencies without minor units, and those with three decimals; every other has two. */
const ISO_ZERO_DECIMALS = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const ISO_THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function isoDecimals(currency: string): number {
  if (ISO_ZERO_DECIMALS.has(currency)) return 0;
  if (ISO_THREE_DECIMALS.has(currency)) return 3;
  return 2;
}

/**
 * The social platform's budgets are integers in the currency's minor unit by its own table: offset 1
 * for these currencies (whole units only, HUF and TWD included), offset 100 for every other (two
 * decimals, a three-decimal currency included).
 */
const SOCIAL_OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);

export function socialDecimals(currency: string): number {
  return SOCIAL_OFFSET_ONE.has(currency) ? 0 : 2;
}

/** Search ads: micros (10^-6 major units); an amount is a multiple of the currency's billable unit. */
export const MICROS_DECIMALS = 6;

/** The decimals a billable unit allows (10,000 micros → 2, 1,000,000 → 0, 1,000 → 3). */
export function decimalsOfBillableUnit(billableUnitMicros: bigint): number {
  let decimals = MICROS_DECIMALS;
  let unit = billableUnitMicros;
  while (unit >= 10n && unit % 10n === 0n && decimals > 0) {
    unit /= 10n;
    decimals--;
  }
  return decimals;
}
