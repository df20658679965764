/**
 * Money as integer units of 10^-8 of the currency (the precision of the vendor's price strings,
 * "0.03330000"), never a float. Safe up to about 90 million EUR.
 */
export type Amount = number;

export const DECIMALS = 8;
const SCALE = 10 ** DECIMALS;

/**
 * Parses a decimal string ("0.0333", "10", "-1.5") into units. Refuses more than 8 decimals,
 * exponents and anything that is not a plain decimal.
 *
 * @example
 * parseAmount('0.03330000') // 3330000
 */
export function parseAmount(text: string): Amount {
  const m = /^(-)?(\d+)(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`Not a decimal amount: ${text}`);
  const units = Number(m[2]) * SCALE + Number((m[3] ?? '').padEnd(DECIMALS, '0'));
  if (!Number.isSafeInteger(units)) throw new RangeError(`Amount out of range: ${text}`);
  return m[1] ? -units : units;
}

/** Units from a JSON number given by a person (a sandbox balance), rounded to 8 decimals. */
export function amountFromNumber(value: number): Amount {
  if (!Number.isFinite(value)) throw new RangeError('Not a finite amount');
  return parseAmount(value.toFixed(DECIMALS));
}

/**
 * Formats units as a fixed decimal string.
 *
 * @example
 * formatAmount(3330000) // '0.03330000'
 * formatAmount(3330000, 4) // '0.0333'
 */
export function formatAmount(units: Amount, decimals = DECIMALS): string {
  if (!Number.isSafeInteger(units)) throw new RangeError('Amount must be a safe integer');
  const sign = units < 0 ? '-' : '';
  const places = Math.min(decimals, DECIMALS);
  const step = 10 ** (DECIMALS - places);
  // Round half away from zero to the requested places.
  const scaled = Math.round(Math.abs(units) / step);
  const whole = Math.floor(scaled / 10 ** places);
  if (places === 0) return `${sign}${whole}`;
  const frac = String(scaled % 10 ** places)
    .padStart(places, '0')
    .padEnd(decimals, '0');
  return `${sign}${whole}.${frac}`;
}

/** The amount as a JSON number at the API edge (balance `value`), exact to 8 decimals. */
export function amountToNumber(units: Amount): number {
  return Number(formatAmount(units));
}

/** Multiplies a price by a count (parts, minutes) exactly. */
export function multiplyAmount(units: Amount, count: number): Amount {
  const out = units * count;
  if (!Number.isSafeInteger(out)) throw new RangeError('Amount out of range');
  return out;
}
