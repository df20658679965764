import { Pricing, ServiceType } from '@vonage/pricing';
import { describe, expect, it } from 'vitest';
import { basic, newAccount, sdkOptions, stack } from './helpers';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pricing through @vonage/pricing', () => {
  it('answers a country, every country and a prefix, one request per second', async () => {
    const acct = await newAccount();
    const pricing = new Pricing({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());

    const gb = await pricing.listCountryPricing(ServiceType.SMS, 'GB');
    expect(gb).toMatchObject({ countryCode: 'GB', currency: 'EUR', dialingPrefix: '44' });
    expect(gb.defaultPrice).toMatch(/^\d+\.\d{8}$/);
    expect(gb.networks.length).toBeGreaterThan(3);
    const vodafone = gb.networks.find((n) => n.networkCode === '23415');
    expect(vodafone).toMatchObject({ mcc: '234', mnc: '15', type: 'mobile', currency: 'EUR' });

    // A second request within the same second is refused.
    await expect(pricing.listAllCountriesPricing(ServiceType.VOICE)).rejects.toMatchObject({
      response: { status: 429 },
    });
    await pause(1100);

    const all = await pricing.listAllCountriesPricing(ServiceType.VOICE);
    expect(Number(all.count)).toBe(all.countries.length);
    expect(all.countries.length).toBeGreaterThan(200);
    expect(all.countries[0]).not.toHaveProperty('countryCode');
    await pause(1100);

    const one = await pricing.listPrefixPricing(ServiceType.SMS_TRANSIT, '1');
    expect(one.countries.map((c) => c.countryName)).toEqual(expect.arrayContaining(['Canada']));
  });

  it('answers the BAD_REQUEST body for a missing or unknown country', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/account/get-pricing/outbound/sms`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret) },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'BAD_REQUEST',
      error_title: 'Bad Request',
      invalid_parameters: { parameter: 'country', message: 'Is required' },
    });
    await pause(1100);
    const bad = await fetch(`${stack.url}/account/get-pricing/outbound/fax?country=GB`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret) },
    });
    expect(bad.status).toBe(400);
    expect(
      ((await bad.json()) as { invalid_parameters: { parameter: string } }).invalid_parameters.parameter,
    ).toBe('type');
  });

  it('refuses bad credentials with the legacy 401 body', async () => {
    const pricing = new Pricing({ apiKey: stack.demo.api_key, apiSecret: 'Nope12345' }, sdkOptions());
    await expect(pricing.listCountryPricing(ServiceType.SMS, 'GB')).rejects.toMatchObject({
      response: { status: 401 },
    });
  });
});
