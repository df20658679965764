import { type Amount, parseAmount } from '@comms/core';

/** The three lookup levels (the asynchronous endpoint is an advanced lookup). */
export type Level = 'basic' | 'standard' | 'advanced';

/**
 * What each level costs, in EUR: basic is free, as the vendor's is; standard and advanced are in the
 * range of the vendor's list prices. The same everywhere, whatever the number's country.
 */
export const LOOKUP_PRICE: Readonly<Record<Level, Amount>> = {
  basic: 0,
  standard: parseAmount('0.005'),
  advanced: parseAmount('0.03'),
};

/** The caller-name (CNAM) surcharge of a standard or advanced lookup with `cnam=true`. */
export const CNAM_PRICE: Amount = parseAmount('0.01');

/** What a lookup costs and what of its list price is handed back. */
export interface Quote {
  /** Debited from the balance; the response's `request_price`. */
  charge: Amount;
  /** Part of the list price not charged; the response's `refund_price`. */
  refund: Amount;
}

export interface QuoteInput {
  level: Level;
  /** `cnam=true` was asked for. */
  cnam: boolean;
  /** The number is one caller names exist for (US only). */
  cnamAvailable: boolean;
  /** The live lookup failed (status 45): the lookup price is not charged. */
  lookupFailed: boolean;
}

/**
 * The charge of a lookup. `refund_price` follows the reference: the caller-name price when `cnam` was
 * asked for a number it does not exist for, the lookup price when the lookup failed, the sum when both.
 * The refund is never debited in the first place, so the balance falls by exactly `request_price`.
 *
 * @example
 * quote({ level: 'standard', cnam: true, cnamAvailable: false, lookupFailed: false })
 * // { charge: 500000 (0.005), refund: 1000000 (0.01) }
 */
export function quote(input: QuoteInput): Quote {
  const lookup = LOOKUP_PRICE[input.level];
  const cnam = input.cnam && input.level !== 'basic' ? CNAM_PRICE : 0;
  const refund = (input.cnamAvailable ? 0 : cnam) + (input.lookupFailed ? lookup : 0);
  return { charge: lookup + cnam - refund, refund };
}
