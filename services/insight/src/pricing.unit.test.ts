import { formatAmount } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { CNAM_PRICE, LOOKUP_PRICE, quote } from './pricing';

const eur = (q: { charge: number; refund: number }) => ({
  charge: formatAmount(q.charge),
  refund: formatAmount(q.refund),
});

describe('quote', () => {
  it('prices the levels: basic free, standard 0.005, advanced 0.03 EUR', () => {
    expect(formatAmount(LOOKUP_PRICE.basic)).toBe('0.00000000');
    expect(formatAmount(LOOKUP_PRICE.standard)).toBe('0.00500000');
    expect(formatAmount(LOOKUP_PRICE.advanced)).toBe('0.03000000');
    expect(formatAmount(CNAM_PRICE)).toBe('0.01000000');
    const plain = { cnam: false, cnamAvailable: false, lookupFailed: false };
    expect(eur(quote({ level: 'basic', ...plain }))).toEqual({ charge: '0.00000000', refund: '0.00000000' });
    expect(eur(quote({ level: 'advanced', ...plain }))).toEqual({
      charge: '0.03000000',
      refund: '0.00000000',
    });
  });

  it('adds the caller-name price where caller names exist', () => {
    expect(eur(quote({ level: 'standard', cnam: true, cnamAvailable: true, lookupFailed: false }))).toEqual({
      charge: '0.01500000',
      refund: '0.00000000',
    });
  });

  it('refunds the caller-name price for a number without caller names', () => {
    expect(eur(quote({ level: 'standard', cnam: true, cnamAvailable: false, lookupFailed: false }))).toEqual({
      charge: '0.00500000',
      refund: '0.01000000',
    });
  });

  it('refunds the lookup price when the lookup failed, and the sum when both apply', () => {
    expect(eur(quote({ level: 'advanced', cnam: false, cnamAvailable: false, lookupFailed: true }))).toEqual({
      charge: '0.00000000',
      refund: '0.03000000',
    });
    expect(eur(quote({ level: 'advanced', cnam: true, cnamAvailable: false, lookupFailed: true }))).toEqual({
      charge: '0.00000000',
      refund: '0.04000000',
    });
    expect(eur(quote({ level: 'advanced', cnam: true, cnamAvailable: true, lookupFailed: true }))).toEqual({
      charge: '0.01000000',
      refund: '0.03000000',
    });
  });

  it('ignores cnam at basic level', () => {
    expect(quote({ level: 'basic', cnam: true, cnamAvailable: false, lookupFailed: false })).toEqual({
      charge: 0,
      refund: 0,
    });
  });
});
