import { parseAmount } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { countries } from './countries';
import {
  allCountryPricing,
  countryPricing,
  fnv1a,
  isPricingType,
  networkPrice,
  type PricingType,
  prefixPricing,
  priceFor,
  toPricingJson,
} from './pricing';

const TYPES: PricingType[] = ['sms', 'sms-transit', 'voice'];
const mobilePrices = (type: PricingType, country: string) =>
  (countryPricing(type, country)?.networks ?? []).filter((n) => n.type === 'mobile').map((n) => n.price);

describe('fnv1a', () => {
  it('matches the reference FNV-1a 32-bit vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('isPricingType', () => {
  it('accepts exactly the three types', () => {
    for (const t of TYPES) expect(isPricingType(t)).toBe(true);
    for (const t of ['SMS', 'mms', '', undefined, 1]) expect(isPricingType(t)).toBe(false);
  });
});

describe('prices', () => {
  it('are positive integer amounts in steps of 0.0001 EUR', () => {
    for (const type of TYPES) {
      for (const p of allCountryPricing(type)) {
        for (const price of [p.defaultPrice, ...p.networks.map((n) => n.price)]) {
          expect(Number.isSafeInteger(price)).toBe(true);
          expect(price).toBeGreaterThan(0);
          expect(price % 10_000).toBe(0);
        }
      }
    }
  });

  it('are pinned for a known network, so they cannot drift between deploys', () => {
    const first = countryPricing('sms', 'GB');
    expect(countryPricing('sms', 'gb')).toBe(first);
    expect(networkPrice('voice', 'GB-FIXED')).toBe(parseAmount('0.0100'));
    expect(networkPrice('sms', '23415')).toBe(networkPrice('sms', '23415'));
    expect(toPricingJson(countryPricing('sms', 'GB')!, { withCountryCode: false }).networks[0]).toEqual({
      type: 'mobile',
      price: '0.04900000',
      currency: 'EUR',
      mcc: '234',
      mnc: '00',
      networkCode: '23400',
      networkName: 'BT',
    });
  });

  it('vary per network within ±25% of the market rate', () => {
    const gb = mobilePrices('sms', 'GB');
    expect(new Set(gb).size).toBeGreaterThan(5);
    for (const price of gb) {
      expect(price).toBeGreaterThanOrEqual(parseAmount('0.0315'));
      expect(price).toBeLessThanOrEqual(parseAmount('0.0525'));
    }
    const us = mobilePrices('sms', 'US');
    expect(Math.max(...us)).toBeLessThan(Math.min(...gb)); // US SMS is far cheaper than UK SMS
  });

  it('put sms-transit strictly above sms on every network', () => {
    for (const sms of allCountryPricing('sms')) {
      const transit = countryPricing('sms-transit', sms.country.code)!;
      expect(transit.networks.map((n) => n.networkCode)).toEqual(sms.networks.map((n) => n.networkCode));
      sms.networks.forEach((n, i) => {
        expect(transit.networks[i]!.price).toBeGreaterThan(n.price);
      });
      expect(transit.defaultPrice).toBeGreaterThan(sms.defaultPrice);
    }
  });

  it('make voice to a landline cheaper than to any mobile network of the country', () => {
    for (const p of allCountryPricing('voice')) {
      const landline = p.networks.find((n) => n.type === 'landline')!;
      const mobiles = p.networks.filter((n) => n.type === 'mobile');
      for (const m of mobiles) expect(landline.price).toBeLessThan(m.price);
    }
    expect(networkPrice('voice', 'GB-FIXED')!).toBeLessThan(networkPrice('voice', '23415')!);
  });
});

describe('countryPricing', () => {
  it('lists only mobile networks for sms and the landline too for voice', () => {
    const sms = countryPricing('sms', 'GB')!;
    const voice = countryPricing('voice', 'GB')!;
    expect(sms.currency).toBe('EUR');
    expect(sms.networks.length).toBeGreaterThan(10);
    expect(sms.networks.every((n) => n.type === 'mobile')).toBe(true);
    expect(voice.networks.length).toBe(sms.networks.length + 1);
    expect(voice.networks.filter((n) => n.type === 'landline').map((n) => n.networkCode)).toEqual([
      'GB-FIXED',
    ]);
  });

  it('sets the default to the highest network price', () => {
    for (const type of TYPES) {
      for (const p of allCountryPricing(type)) {
        if (p.networks.length) expect(p.defaultPrice).toBe(Math.max(...p.networks.map((n) => n.price)));
      }
    }
  });

  it('still prices sms to a country without known mobile networks', () => {
    const va = countryPricing('sms', 'VA')!;
    expect(va.networks).toEqual([]);
    expect(va.defaultPrice).toBeGreaterThan(0);
  });

  it('is undefined for an unknown country', () => {
    expect(countryPricing('sms', 'ZZ')).toBeUndefined();
    expect(countryPricing('voice', '')).toBeUndefined();
  });
});

describe('allCountryPricing', () => {
  it('has every country, each with at least one voice network', () => {
    const voice = allCountryPricing('voice');
    expect(voice.map((p) => p.country.code)).toEqual(countries().map((c) => c.code));
    for (const p of voice) expect(p.networks.length).toBeGreaterThanOrEqual(1);
  });

  it('has mobile networks for sms in nearly every country', () => {
    const withNetworks = allCountryPricing('sms').filter((p) => p.networks.length > 0);
    expect(withNetworks.length).toBeGreaterThan(230);
  });
});

describe('prefixPricing', () => {
  it('returns US and CA, and only NANP countries, for 1', () => {
    const nanp = prefixPricing('sms', '1');
    const codes = nanp.map((p) => p.country.code);
    expect(codes).toEqual(expect.arrayContaining(['US', 'CA']));
    expect(nanp.every((p) => p.country.dialingPrefix === '1')).toBe(true);
    expect(nanp.find((p) => p.country.code === 'US')).toBe(countryPricing('sms', 'US'));
  });

  it('resolves a longer prefix and matches nothing for garbage', () => {
    expect(prefixPricing('voice', '4479').map((p) => p.country.code)).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(prefixPricing('voice', 'x')).toEqual([]);
  });
});

describe('networkPrice and priceFor', () => {
  it('price a network, or fall back to the country default', () => {
    const gb = countryPricing('sms', 'GB')!;
    const vodafone = gb.networks.find((n) => n.networkCode === '23415')!.price;
    expect(networkPrice('sms', '23415')).toBe(vodafone);
    expect(priceFor('sms', 'GB', '23415')).toBe(vodafone);
    expect(priceFor('sms', 'GB')).toBe(gb.defaultPrice);
    expect(priceFor('sms', 'GB', '310260')).toBe(gb.defaultPrice); // a US network
    expect(priceFor('sms', 'GB', 'GB-FIXED')).toBe(gb.defaultPrice); // not priced for sms
    expect(priceFor('voice', 'GB', 'gb-fixed')).toBe(parseAmount('0.0100'));
  });

  it('price a shared network for the country asked for', () => {
    const pr = countryPricing('voice', 'PR')!.networks.find((n) => n.networkCode === '310260')!.price;
    const us = countryPricing('voice', 'US')!.networks.find((n) => n.networkCode === '310260')!.price;
    expect(pr).not.toBe(us); // different market rates
    expect(networkPrice('voice', '310260', 'PR')).toBe(pr);
    expect(networkPrice('voice', '310260')).toBe(us);
  });

  it('are undefined for unknown networks, countries and sms to landlines', () => {
    expect(networkPrice('sms', '99999')).toBeUndefined();
    expect(networkPrice('sms', 'GB-FIXED')).toBeUndefined();
    expect(networkPrice('sms-transit', 'GB-FIXED')).toBeUndefined();
    expect(priceFor('voice', 'ZZ')).toBeUndefined();
  });
});

describe('toPricingJson', () => {
  it('shapes the vendor response with 8-decimal strings', () => {
    const pricing = countryPricing('voice', 'CA')!;
    const json = toPricingJson(pricing, { withCountryCode: true });
    expect(Object.keys(json)).toEqual([
      'countryCode',
      'countryName',
      'countryDisplayName',
      'currency',
      'defaultPrice',
      'dialingPrefix',
      'networks',
    ]);
    expect(json).toMatchObject({
      countryCode: 'CA',
      countryName: 'Canada',
      countryDisplayName: 'Canada',
      currency: 'EUR',
      dialingPrefix: '1',
    });
    expect(json.defaultPrice).toMatch(/^\d+\.\d{8}$/);
    expect(parseAmount(json.defaultPrice)).toBe(pricing.defaultPrice);
    expect(json.networks).toHaveLength(pricing.networks.length);
    json.networks.forEach((n, i) => {
      const source = pricing.networks[i]!;
      expect(Object.keys(n)).toEqual([
        'type',
        'price',
        'currency',
        'mcc',
        'mnc',
        'networkCode',
        'networkName',
      ]);
      expect(n.price).toMatch(/^\d+\.\d{8}$/);
      expect(parseAmount(n.price)).toBe(source.price);
      expect(n).toMatchObject({ type: source.type, currency: 'EUR', networkCode: source.networkCode });
    });
    expect(json.networks.at(-1)).toMatchObject({ type: 'landline', networkCode: 'CA-FIXED', mnc: '' });
  });

  it('omits countryCode unless asked for', () => {
    const json = toPricingJson(countryPricing('sms', 'US')!, { withCountryCode: false });
    expect('countryCode' in json).toBe(false);
    expect(json.countryName).toBe('United States of America');
    expect(json.countryDisplayName).toBe('United States');
  });
});
