import { formatAmount } from '@comms/core';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { featuresOf, generatePool, monthlyCost } from './inventory';

describe('number inventory', () => {
  it('generates valid numbers of the right type for several countries', () => {
    for (const country of ['GB', 'US', 'NL', 'SE', 'AU', 'IN', 'CA', 'IE']) {
      const pool = generatePool(country);
      const mobiles = pool.filter((n) => n.type === 'mobile-lvn');
      const landlines = pool.filter((n) => n.type === 'landline');
      expect(mobiles.length, country).toBeGreaterThanOrEqual(30);
      expect(landlines.length, country).toBeGreaterThanOrEqual(20);
      for (const n of pool) {
        const parsed = parsePhoneNumberFromString(`+${n.msisdn}`);
        expect(parsed?.isValid(), n.msisdn).toBe(true);
        expect(parsed?.country, n.msisdn).toBe(country);
        const type = parsed?.getType();
        if (n.type === 'landline') expect(['FIXED_LINE', 'FIXED_LINE_OR_MOBILE']).toContain(type);
        if (n.type === 'mobile-lvn') expect(['MOBILE', 'FIXED_LINE_OR_MOBILE']).toContain(type);
        if (n.type === 'landline-toll-free') expect(type).toBe('TOLL_FREE');
      }
      expect(new Set(pool.map((n) => n.msisdn)).size).toBe(pool.length);
    }
  });

  it('is deterministic per country', () => {
    expect(generatePool('GB').map((n) => n.msisdn)).toEqual(generatePool('GB').map((n) => n.msisdn));
    expect(generatePool('GB')[0]?.msisdn).not.toBe(generatePool('IE')[0]?.msisdn);
  });

  it('prices rentals in cents from the pricing data, toll-free above landline', () => {
    const landline = monthlyCost('GB', 'landline') ?? 0;
    const tollFree = monthlyCost('GB', 'landline-toll-free') ?? 0;
    expect(formatAmount(monthlyCost('GB', 'mobile-lvn') ?? 0)).toMatch(/^\d+\.\d\d000000$/);
    expect(tollFree).toBeGreaterThan(landline);
    expect(monthlyCost('ZZ', 'landline')).toBeUndefined();
  });

  it('gives SMS to North American numbers of every type and to mobiles elsewhere', () => {
    expect(featuresOf('US', 'landline')).toContain('SMS');
    expect(featuresOf('GB', 'landline')).toEqual(['VOICE']);
    expect(featuresOf('GB', 'mobile-lvn')).toEqual(['SMS', 'VOICE']);
  });
});
