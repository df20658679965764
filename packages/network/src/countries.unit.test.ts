import { describe, expect, it } from 'vitest';
import { countries, countriesByDialingPrefix, countryByCode } from './countries';

const codesOf = (list: readonly { code: string }[]) => list.map((c) => c.code);

describe('countries', () => {
  it('lists every calling-code region once, sorted, with well-formed codes', () => {
    const list = countries();
    expect(list.length).toBeGreaterThanOrEqual(240);
    const codes = codesOf(list);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...codes].sort());
    for (const c of list) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.dialingPrefix).toMatch(/^[1-9]\d{0,2}$/);
      expect(c.name).not.toBe('');
      expect(c.displayName).not.toBe('');
    }
  });

  it('covers the non-ISO territories libphonenumber knows', () => {
    expect(countryByCode('AC')).toMatchObject({
      alpha3: 'ASC',
      name: 'Ascension Island',
      dialingPrefix: '247',
    });
    expect(countryByCode('TA')).toMatchObject({
      alpha3: 'TAA',
      name: 'Tristan da Cunha',
      dialingPrefix: '290',
    });
  });

  it('returns the memoised list on later calls', () => {
    expect(countries()).toBe(countries());
  });
});

describe('countryByCode', () => {
  it('finds a country in any case', () => {
    expect(countryByCode('gb')).toEqual({
      code: 'GB',
      alpha3: 'GBR',
      name: 'United Kingdom',
      displayName: 'United Kingdom',
      dialingPrefix: '44',
    });
    expect(countryByCode(' De ')?.alpha3).toBe('DEU');
  });

  it('is undefined for unknown or malformed codes', () => {
    expect(countryByCode('ZZ')).toBeUndefined();
    expect(countryByCode('')).toBeUndefined();
    expect(countryByCode('GBR')).toBeUndefined();
    // In ISO 3166 but without a calling code.
    expect(countryByCode('AQ')).toBeUndefined();
  });

  it('uses the common name for display unless it is an abbreviation, inverted, shared or trivial', () => {
    const display = (code: string) => countryByCode(code)?.displayName;
    expect(countryByCode('US')?.name).toBe('United States of America');
    expect(display('US')).toBe('United States');
    expect(display('RU')).toBe('Russia');
    expect(display('GB')).toBe('United Kingdom'); // alias 'UK'
    expect(display('AE')).toBe('United Arab Emirates'); // alias 'UAE'
    expect(display('KR')).toBe('South Korea'); // alias 'Korea, Republic of'
    expect(display('CG')).toBe('Republic of the Congo'); // alias 'Congo', shared with CD
    expect(display('CD')).toBe('Democratic Republic of the Congo');
    expect(display('NL')).toBe('Netherlands'); // alias 'The Netherlands'
    expect(display('AX')).toBe('Åland Islands'); // alias 'Aland Islands'
  });
});

describe('countriesByDialingPrefix', () => {
  it('returns all NANP countries for 1, US and CA among them', () => {
    const nanp = countriesByDialingPrefix('1');
    expect(codesOf(nanp)).toEqual(expect.arrayContaining(['US', 'CA', 'PR', 'JM', 'BS']));
    expect(codesOf(nanp)).not.toContain('GB');
    expect(nanp.every((c) => c.dialingPrefix === '1')).toBe(true);
    expect(nanp.length).toBe(countries().filter((c) => c.dialingPrefix === '1').length);
  });

  it('resolves a longer prefix to the calling code it starts with', () => {
    expect(codesOf(countriesByDialingPrefix('4479'))).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(codesOf(countriesByDialingPrefix('+44'))).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(codesOf(countriesByDialingPrefix('0049 30'))).toEqual(['DE']);
    expect(codesOf(countriesByDialingPrefix('35312345'))).toEqual(['IE']);
    expect(codesOf(countriesByDialingPrefix('7'))).toEqual(['KZ', 'RU']);
    expect(codesOf(countriesByDialingPrefix('1242'))).toContain('US');
  });

  it('matches nothing for a prefix shorter than any code, or not a number', () => {
    expect(countriesByDialingPrefix('3')).toEqual([]);
    expect(countriesByDialingPrefix('')).toEqual([]);
    expect(countriesByDialingPrefix('+')).toEqual([]);
    expect(countriesByDialingPrefix('44a')).toEqual([]);
  });

  it('relies on calling codes being prefix-free', () => {
    const codes = [...new Set(countries().map((c) => c.dialingPrefix))];
    const clashes = codes.filter((a) => codes.some((b) => a !== b && b.startsWith(a)));
    expect(clashes).toEqual([]);
  });
});
