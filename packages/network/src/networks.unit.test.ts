import { describe, expect, it } from 'vitest';
import { countries } from './countries';
import { allNetworks, type Network, networkByCode, networksOf } from './networks';

const codesOf = (list: readonly Network[]) => list.map((n) => n.networkCode);
const isSorted = (list: readonly string[]) => list.every((v, i) => i === 0 || list[i - 1]! <= v);

describe('networksOf', () => {
  it('lists the UK mobile networks under MCC 234/235', () => {
    const gb = networksOf('GB');
    const mobile = gb.filter((n) => n.type === 'mobile');
    expect(mobile.length).toBeGreaterThan(10);
    expect(mobile.every((n) => n.mcc === '234' || n.mcc === '235')).toBe(true);
    expect(gb).toContainEqual({
      mcc: '234',
      mnc: '15',
      networkCode: '23415',
      networkName: 'Vodafone UK',
      country: 'GB',
      type: 'mobile',
    });
    expect(gb.find((n) => n.networkCode === '23430')?.networkName).toBe('EE');
    expect(gb.find((n) => n.networkCode === '23410')?.networkName).toBe('O2 (UK)');
  });

  it('is case-insensitive and empty for an unknown country', () => {
    expect(networksOf('gb')).toBe(networksOf('GB'));
    expect(networksOf('ZZ')).toEqual([]);
  });

  it('sorts by network code, landline last', () => {
    const codes = codesOf(networksOf('US'));
    expect(isSorted(codes)).toBe(true);
    expect(codes.at(-1)).toBe('US-FIXED');
  });

  it('skips records that are not live', () => {
    // 23418 is 'Not operational' for the Isle of Man but 'Operational' for the UK.
    expect(codesOf(networksOf('GB'))).toContain('23418');
    expect(codesOf(networksOf('IM'))).not.toContain('23418');
    // 25012 is listed twice for Russia, both 'Not operational'; 23431 is only 'Allocated'.
    expect(networkByCode('25012')).toBeUndefined();
    expect(networkByCode('23431')).toBeUndefined();
  });

  it('skips test, international, non-country and malformed records', () => {
    expect(networkByCode('00101')).toBeUndefined(); // test network
    expect(networkByCode('90103')).toBeUndefined(); // Iridium, no country
    expect(networkByCode('28967')).toBeUndefined(); // Abkhazia, 'GE-AB'
    expect(allNetworks().some((n) => n.networkName === 'Unassigned')).toBe(false);
  });

  it('gives a network shared by territories to each of them', () => {
    for (const country of ['US', 'PR', 'VI']) expect(codesOf(networksOf(country))).toContain('310260');
    for (const country of ['GP', 'MQ', 'GF']) {
      expect(networksOf(country).filter((n) => n.networkCode === '34001')).toHaveLength(1);
    }
  });
});

describe('landline networks', () => {
  it('adds exactly one per country, on its home MCC', () => {
    for (const country of countries()) {
      const landlines = networksOf(country.code).filter((n) => n.type === 'landline');
      expect(landlines).toEqual([
        {
          mcc: expect.any(String),
          mnc: '',
          networkCode: `${country.code}-FIXED`,
          networkName: `${country.displayName} Landline`,
          country: country.code,
          type: 'landline',
        },
      ]);
    }
    expect(networkByCode('GB-FIXED')?.mcc).toBe('234');
    expect(networkByCode('US-FIXED')?.mcc).toBe('310');
    expect(networkByCode('PR-FIXED')?.mcc).toBe('330');
    expect(networkByCode('VA-FIXED')?.mcc).toBe(''); // no MCC in the data
  });
});

describe('networkByCode', () => {
  it('prefers the country owning the MCC for a shared code, or the country asked for', () => {
    expect(networkByCode('310260')?.country).toBe('US');
    expect(networkByCode('310260', 'pr')?.country).toBe('PR');
    expect(networkByCode('310260', 'GB')).toBeUndefined();
    expect(networkByCode('23403')?.country).toBe('GB');
  });

  it('accepts landline codes in any case and is undefined for unknown codes', () => {
    expect(networkByCode('gb-fixed')?.type).toBe('landline');
    expect(networkByCode('99999')).toBeUndefined();
    expect(networkByCode('')).toBeUndefined();
  });
});

describe('allNetworks', () => {
  const all = allNetworks();

  it('holds well-formed entries with non-empty names', () => {
    for (const n of all) {
      expect(n.networkName.trim()).not.toBe('');
      if (n.type === 'mobile') {
        expect(n.mcc).toMatch(/^\d{3}$/);
        expect(n.mnc).toMatch(/^\d{2,3}$/);
        expect(n.networkCode).toBe(n.mcc + n.mnc);
      }
    }
  });

  it('has one entry per country and code, sorted by code then country', () => {
    const keys = all.map((n) => `${n.networkCode}:${n.country}`);
    expect(new Set(keys).size).toBe(keys.length);
    const inOrder = all.every((n, i) => {
      const prev = all[i - 1];
      if (!prev || prev.networkCode !== n.networkCode) return !prev || prev.networkCode < n.networkCode;
      return prev.country < n.country;
    });
    expect(inOrder).toBe(true);
    expect(all.length).toBe(countries().reduce((sum, c) => sum + networksOf(c.code).length, 0));
    expect(all.filter((n) => n.type === 'mobile').length).toBeGreaterThan(2000);
  });
});
