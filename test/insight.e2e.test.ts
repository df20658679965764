import { Accounts } from '@vonage/accounts';
import { AlgorithmTypes, Auth } from '@vonage/auth';
import { NumberInsights } from '@vonage/number-insights';
import { XMLParser } from 'fast-xml-parser';
import { type CountryCode, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, newAccount, sdkOptions, stack, startReceiver } from './helpers';

type Body = Record<string, unknown>;

function insights(acct: Account) {
  return new NumberInsights({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
}

/** A decimal EUR string as integer units of 10^-8, so that money is compared exactly. */
function units(eur: string | number): number {
  const [whole, frac = ''] = String(typeof eur === 'number' ? eur.toFixed(8) : eur).split('.');
  return Number(whole) * 1e8 + Number(frac.padEnd(8, '0'));
}

async function balanceOf(acct: Account): Promise<number> {
  const balance = await new Accounts(
    { apiKey: acct.api_key, apiSecret: acct.api_secret },
    sdkOptions(),
  ).getBalance();
  return units(balance.value);
}

function query(acct: Account, params: Record<string, string>): string {
  return new URLSearchParams({ ...params, api_key: acct.api_key, api_secret: acct.api_secret }).toString();
}

/** A raw GET; the body is JSON or XML text as the format says. */
async function lookup(path: string, acct: Account, params: Record<string, string>) {
  const res = await fetch(`${stack.url}${path}?${query(acct, params)}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function lookupJson(path: string, acct: Account, params: Record<string, string>): Promise<Body> {
  const res = await lookup(path, acct, params);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as Body;
}

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

/** The XML document's root name and content, as a client's parser reads it. */
function parseXml(text: string): { root: string; body: Record<string, unknown> } {
  const doc = xmlParser.parse(text) as Record<string, unknown>;
  const root = Object.keys(doc).find((k) => k !== '?xml')!;
  return { root, body: doc[root] as Record<string, unknown> };
}

const COMMON = [
  'status',
  'status_message',
  'request_id',
  'international_format_number',
  'national_format_number',
  'country_code',
  'country_code_iso3',
  'country_name',
  'country_prefix',
];
const STANDARD = [
  ...COMMON,
  'request_price',
  'refund_price',
  'remaining_balance',
  'current_carrier',
  'original_carrier',
  'ported',
];
const CALLER = ['caller_identity', 'caller_name', 'first_name', 'last_name', 'caller_type'];
const ADVANCED = [
  ...STANDARD,
  'lookup_outcome',
  'lookup_outcome_message',
  'valid_number',
  'reachable',
  'roaming',
  'ip_warnings',
];

describe('Number Insight through @vonage/number-insights', () => {
  let acct: Account;
  beforeAll(async () => {
    acct = await newAccount({ balance: 10 });
  });

  it('answers a basic lookup with exactly the basic fields, free of charge', async () => {
    const before = await balanceOf(acct);
    const result = (await insights(acct).basicLookup('+44 7700 900123')) as unknown as Body;
    expect(Object.keys(result).sort()).toEqual([...COMMON].sort());
    expect(result).toMatchObject({
      status: 0,
      status_message: 'Success',
      international_format_number: '447700900123',
      national_format_number: '07700 900123',
      country_code: 'GB',
      country_code_iso3: 'GBR',
      country_name: 'United Kingdom',
      country_prefix: '44',
    });
    expect(result['request_id']).toMatch(/^[0-9a-z-]{1,40}$/);
    expect(await balanceOf(acct)).toBe(before);
  });

  it('reads a national number with its country', async () => {
    const result = await insights(acct).basicLookup('(201) 555-0123', { country: 'US' });
    expect(result).toMatchObject({
      status: 0,
      international_format_number: '12015550123',
      national_format_number: '(201) 555-0123',
      country_code: 'US',
      country_code_iso3: 'USA',
      country_prefix: '1',
    });
  });

  it('answers a standard lookup and charges exactly its request_price', async () => {
    const before = await balanceOf(acct);
    const result = (await insights(acct).standardLookup('447700900100')) as unknown as Body;
    expect(Object.keys(result).sort()).toEqual([...STANDARD].sort());
    expect(result).toMatchObject({
      status: 0,
      request_price: '0.00500000',
      refund_price: '0.00000000',
      ported: 'ported',
      original_carrier: { country: 'GB', network_type: 'mobile' },
      current_carrier: { country: 'GB', network_type: 'mobile' },
    });
    const original = result['original_carrier'] as Body;
    const current = result['current_carrier'] as Body;
    expect(original['network_code']).toMatch(/^234\d{2,3}$/);
    expect(current['name']).not.toBe(original['name']);
    const after = await balanceOf(acct);
    expect(before - after).toBe(units(result['request_price'] as string));
    expect(units(result['remaining_balance'] as string)).toBe(after);
  });

  it('returns caller identity for a US number with cnam, and refunds cnam for any other number', async () => {
    const client = insights(acct);
    // The SDK spells the option `cname`; the API's own name is `cnam`.
    const us = (await client.standardLookup('12015550123', { cname: true })) as unknown as Body;
    expect(Object.keys(us).sort()).toEqual([...STANDARD, ...CALLER].sort());
    expect(us).toMatchObject({ request_price: '0.01500000', refund_price: '0.00000000' });
    const identity = us['caller_identity'] as Body;
    expect(identity['caller_type']).toMatch(/^(consumer|business)$/);
    expect(identity['caller_name']).toEqual(expect.any(String));
    for (const key of ['caller_type', 'caller_name', 'first_name', 'last_name'])
      expect(us[key]).toBe(identity[key]);

    const before = await balanceOf(acct);
    const gb = (await client.standardLookup('447700900123', { cname: true })) as unknown as Body;
    expect(gb).toMatchObject({ status: 0, request_price: '0.00500000', refund_price: '0.01000000' });
    expect(gb).not.toHaveProperty('caller_identity');
    expect(before - (await balanceOf(acct))).toBe(units('0.005'));

    // Raw `cnam` works the same, and caller data never appears without it.
    const raw = await lookupJson('/ni/standard/json', acct, { number: '12015550123', cnam: 'true' });
    expect(raw['caller_name']).toBe(us['caller_name']);
    expect(await client.standardLookup('12015550123')).not.toHaveProperty('caller_identity');
  });

  it('answers an advanced lookup with the live data of the magic numbers', async () => {
    const client = insights(acct);
    const ordinary = (await client.advancedLookup('447700900042')) as unknown as Body;
    expect(Object.keys(ordinary).sort()).toEqual([...ADVANCED].sort());
    expect(ordinary).toMatchObject({
      status: 0,
      request_price: '0.03000000',
      lookup_outcome: 0,
      lookup_outcome_message: 'Success',
      valid_number: 'valid',
      reachable: 'reachable',
      roaming: { status: 'not_roaming' },
      ported: 'not_ported',
      ip_warnings: 'unknown',
    });
    const expectations: [string, Body][] = [
      ['447700900100', { status: 0, ported: 'ported' }],
      [
        '12015550101',
        { status: 0, roaming: expect.objectContaining({ status: 'roaming', roaming_country_code: 'CA' }) },
      ],
      ['447700900102', { status: 0, reachable: 'absent' }],
      ['447700900103', { status: 0, reachable: 'blacklisted' }],
      ['447700900104', { status: 0, reachable: 'undeliverable' }],
      ['447700900106', { status: 0, valid_number: 'not_valid', reachable: 'bad_number' }],
    ];
    for (const [number, expected] of expectations) {
      expect(await client.advancedLookup(number), number).toMatchObject(expected);
    }
    const roaming = (await client.advancedLookup('12015550101')) as unknown as Body;
    expect((roaming['roaming'] as Body)['roaming_network_code']).toMatch(/^302\d{2,3}$/);
  });

  it('answers 43, 44 and 45 when the live lookup is incomplete, refunding a failed one', async () => {
    const client = insights(acct);
    const unknown = (await client.advancedLookup('447700900105')) as unknown as Body;
    expect(unknown).toMatchObject({
      status: 43,
      error_text: expect.any(String),
      lookup_outcome: 1,
      roaming: 'unknown',
      reachable: 'unknown',
      ported: 'unknown',
      request_price: '0.03000000',
    });
    expect(unknown).not.toHaveProperty('status_message');
    expect(await client.advancedLookup('447700900107')).toMatchObject({
      status: 44,
      lookup_outcome: 1,
      valid_number: 'inferred_not_valid',
    });
    const before = await balanceOf(acct);
    const failed = (await client.advancedLookup('447700900108')) as unknown as Body;
    expect(failed).toMatchObject({
      status: 45,
      lookup_outcome: 2,
      lookup_outcome_message: 'Failed',
      request_price: '0.00000000',
      refund_price: '0.03000000',
      original_carrier: { network_code: null, name: null, country: 'GB' },
    });
    expect(await balanceOf(acct)).toBe(before);
  });

  it('answers status 4 to wrong credentials, without charging', async () => {
    const wrong = new NumberInsights({ apiKey: acct.api_key, apiSecret: 'WrongSecret1' }, sdkOptions());
    const before = await balanceOf(acct);
    const result = (await wrong.standardLookup('447700900123')) as unknown as Body;
    expect(result).toMatchObject({ status: 4, error_text: expect.any(String) });
    expect(result).not.toHaveProperty('status_message');
    expect(await balanceOf(acct)).toBe(before);
  });
});

describe('Number Insight over raw HTTP', () => {
  let acct: Account;
  beforeAll(async () => {
    acct = await newAccount({ balance: 10 });
  });

  it('answers GET, a form POST and a JSON POST alike', async () => {
    const params = { number: '+33 6 39 98 00 42' };
    const get = await lookupJson('/ni/basic/json', acct, params);
    const form = await fetch(`${stack.url}/ni/basic/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query(acct, params),
    });
    const json = await fetch(`${stack.url}/ni/basic/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, api_key: acct.api_key, api_secret: acct.api_secret }),
    });
    const strip = ({ request_id: _id, ...rest }: Body) => rest;
    expect(get).toMatchObject({ status: 0, country_code: 'FR', international_format_number: '33639980042' });
    expect(strip((await form.json()) as Body)).toEqual(strip(get));
    expect(strip((await json.json()) as Body)).toEqual(strip(get));
  });

  it('accepts a signed request', async () => {
    const signer = new Auth({
      apiKey: acct.api_key,
      signature: { secret: acct.signature_secret, algorithm: AlgorithmTypes.md5hash },
    });
    const params = (await signer.createSignatureHash({
      number: '447700900123',
    } as never)) as unknown as Record<string, string>;
    const res = await fetch(`${stack.url}/ni/basic/json?${new URLSearchParams(params)}`);
    expect(await res.json()).toMatchObject({ status: 0, country_code: 'GB' });
    const forged = await fetch(
      `${stack.url}/ni/basic/json?${new URLSearchParams({ ...params, sig: '0'.repeat(32) })}`,
    );
    expect(await forged.json()).toMatchObject({ status: 4 });
  });

  it('answers the basic lookup in XML with the reference elements', async () => {
    const json = await lookupJson('/ni/basic/json', acct, { number: '447700900123' });
    const res = await lookup('/ni/basic/xml', acct, { number: '447700900123' });
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/xml/);
    const { root, body } = parseXml(res.text);
    expect(root).toBe('format');
    expect(Object.keys(body)).toEqual(['request_id', 'international_format_number', 'local_number', 'error']);
    expect(body['request_id']).toMatch(/^[0-9a-z-]{1,40}$/);
    expect(body['international_format_number']).toBe(json['international_format_number']);
    expect(body['local_number']).toEqual({
      '#text': json['national_format_number'],
      '@country_code': json['country_code'],
      '@country_code_iso3': json['country_code_iso3'],
      '@country_name': json['country_name'],
      '@country_prefix': json['country_prefix'],
    });
    expect(body['error']).toEqual({ '@code': '0', '#text': 'Success' });
  });

  it('answers the standard lookup in XML, field by field as in JSON', async () => {
    const params = { number: '12015550123', cnam: 'true' };
    const json = await lookupJson('/ni/standard/json', acct, params);
    const { root, body } = parseXml((await lookup('/ni/standard/xml', acct, params)).text);
    expect(root).toBe('lookup');
    expect(body['international_format_number']).toBe(json['international_format_number']);
    expect((body['local_number'] as Body)['#text']).toBe(json['national_format_number']);
    expect(body['error']).toEqual({ '@code': '0', '#text': 'Success' });
    expect(body['request_price']).toBe(json['request_price']);
    expect(body['refund_price']).toBe(json['refund_price']);
    // Each lookup is charged, so the XML one leaves 0.015 EUR less.
    expect(units(json['remaining_balance'] as string) - units(body['remaining_balance'] as string)).toBe(
      units('0.015'),
    );
    expect(body['ported']).toBe(json['ported']);
    for (const carrier of ['current_carrier', 'original_carrier']) {
      const fields = json[carrier] as Record<string, string>;
      expect(body[carrier]).toEqual({
        '@network_code': fields['network_code'],
        '@name': fields['name'],
        '@country': fields['country'],
        '@network_type': fields['network_type'],
      });
    }
    const identity = json['caller_identity'] as Record<string, string>;
    expect(body['caller_identity']).toEqual({
      '@caller-type': identity['caller_type'],
      '@caller-name': identity['caller_name'],
      '@first-name': identity['first_name'],
      '@last-name': identity['last_name'],
      caller_name: identity['caller_name'],
      last_name: identity['last_name'],
      firs_name: identity['first_name'],
      caller_type: identity['caller_type'],
    });
  });

  it('answers the advanced lookup in XML, field by field as in JSON', async () => {
    const params = { number: '12015550101', cnam: 'true', ip: '203.0.113.10' };
    const json = await lookupJson('/ni/advanced/json', acct, params);
    const { root, body } = parseXml((await lookup('/ni/advanced/xml', acct, params)).text);
    expect(root).toBe('lookup');
    for (const key of ['international_format_number', 'request_price', 'refund_price', 'ported']) {
      expect(body[key], key).toBe(json[key]);
    }
    for (const key of ['reachable', 'valid_number', 'ip_warnings', 'ip', 'ip_match_level', 'ip_country']) {
      expect(body[key], key).toBe(json[key]);
    }
    expect(json).toMatchObject({ ip: '203.0.113.10', ip_match_level: 'Country Level', ip_country: 'US' });
    expect(body['lookup_outcome']).toEqual({
      '@code': String(json['lookup_outcome']),
      '#text': json['lookup_outcome_message'],
    });
    const roaming = json['roaming'] as Record<string, string>;
    expect(body['roaming']).toEqual(
      Object.fromEntries(Object.entries(roaming).map(([k, v]) => [`@${k}`, v])),
    );
    const identity = json['caller_identity'] as Record<string, string>;
    expect(body['caller_identity']).toEqual({
      '@caller-type': identity['caller_type'],
      '@caller-name': identity['caller_name'],
      '@first-name': identity['first_name'],
      '@last-name': identity['last_name'],
    });
    expect(body['caller_name']).toBe(identity['caller_name']);
    expect(body['firs_name']).toBe(identity['first_name']);
    expect(body['last_name']).toBe(identity['last_name']);
    expect(body['caller_type']).toBe(identity['caller_type']);

    const mismatch = await lookupJson('/ni/advanced/json', acct, { number: '447700900123', ip: '8.8.8.8' });
    expect(mismatch).toMatchObject({ ip_match_level: 'Mismatch', ip_warnings: 'no_warning' });
    const unknown = parseXml((await lookup('/ni/advanced/xml', acct, { number: '447700900105' })).text).body;
    expect(unknown['roaming']).toBe('unknown');
    expect(unknown['error']).toMatchObject({ '@code': '43' });
    expect(unknown).not.toHaveProperty('ip_match_level');
  });

  it('answers failures in XML with the error element', async () => {
    const { root, body } = parseXml(
      (await lookup('/ni/standard/xml', acct, { number: '', country: 'GB' })).text,
    );
    expect(root).toBe('lookup');
    expect(body['request_id']).toEqual(expect.any(String));
    expect(body['error']).toMatchObject({ '@code': '3' });
  });
});

describe('Number Insight status codes', () => {
  it.each([
    ['no number', 3, '/ni/basic/json', {}],
    ['a number with letters', 3, '/ni/basic/json', { number: '0800 CALL ME' }],
    ['a lower-case country', 3, '/ni/basic/json', { number: '07700900123', country: 'gb' }],
    ['a country other than the number’s', 3, '/ni/standard/json', { number: '+447700900123', country: 'FR' }],
    ['no callback', 3, '/ni/advanced/async/json', { number: '447700900123' }],
    ['a number no numbering plan reads', 999, '/ni/standard/json', { number: '+999 123456' }],
  ] as [string, number, string, Record<string, string>][])(
    'answers %s with status %i and charges nothing',
    async (_what, code, path, params) => {
      const acct = await newAccount({ balance: 1 });
      const body = await lookupJson(path, acct, params);
      expect(body['status']).toBe(code);
      expect(body['error_text']).toEqual(expect.any(String));
      expect(await balanceOf(acct)).toBe(units(1));
    },
  );

  it('answers 999 to a JSON body that cannot be parsed', async () => {
    const res = await fetch(`${stack.url}/ni/basic/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"number": "447700900123",',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 999 });
  });

  it('answers 9 when the balance cannot pay for the lookup, leaving it untouched', async () => {
    const poor = await newAccount({ balance: 0.01 });
    const client = insights(poor);
    expect(await client.advancedLookup('447700900123')).toMatchObject({
      status: 9,
      error_text: expect.any(String),
    });
    expect(await balanceOf(poor)).toBe(units('0.01'));
    // Standard (0.005) still fits, and basic is free.
    expect(await client.standardLookup('447700900123')).toMatchObject({
      status: 0,
      remaining_balance: '0.00500000',
    });
    expect(await client.basicLookup('447700900123')).toMatchObject({ status: 0 });
  });

  it('answers 19 to an account in demo mode for standard and advanced lookups only', async () => {
    const demo = await newAccount({ demo_mode: true, balance: 1 });
    const client = insights(demo);
    expect(await client.standardLookup('447700900123')).toMatchObject({
      status: 19,
      error_text: expect.any(String),
    });
    expect(await client.advancedLookup('447700900123')).toMatchObject({ status: 19 });
    const ack = await client.asyncAdvancedLookup('447700900123', 'http://127.0.0.1:9/never');
    expect(ack).toMatchObject({ status: 19, number: '447700900123', error_text: expect.any(String) });
    expect(await client.basicLookup('447700900123')).toMatchObject({ status: 0 });
    expect(await balanceOf(demo)).toBe(units(1));
    // A secondary account is not restricted.
    const secondary = await newAccount({ primary_api_key: demo.api_key });
    expect(await insights(secondary).standardLookup('447700900123')).toMatchObject({ status: 0 });
  });

  it('answers 1 beyond 30 lookups a second and charges only the answered ones', async () => {
    const acct = await newAccount({ balance: 5 });
    const client = insights(acct);
    const results = (await Promise.all(
      Array.from({ length: 40 }, () => client.standardLookup('447700900123')),
    )) as unknown as Body[];
    const answered = results.filter((r) => r['status'] === 0);
    const busy = results.filter((r) => r['status'] === 1);
    expect(answered.length + busy.length).toBe(40);
    expect(answered.length).toBeLessThanOrEqual(30);
    expect(busy.length).toBeGreaterThanOrEqual(10);
    expect(busy[0]).toMatchObject({ status_message: expect.any(String) });
    expect(busy[0]).not.toHaveProperty('error_text');
    expect(units(5) - (await balanceOf(acct))).toBe(answered.length * units('0.005'));
  });
});

describe('the asynchronous advanced lookup', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('acknowledges at once and posts the full advanced result to the callback', async () => {
    const acct = await newAccount({ balance: 2 });
    const ack = (await insights(acct).asyncAdvancedLookup(
      '+44 7700 900102',
      `${receiver.url}/insight`,
    )) as unknown as Body;
    expect(ack).toEqual({
      request_id: expect.any(String),
      number: '+44 7700 900102',
      remaining_balance: '1.97000000',
      request_price: '0.03000000',
      status: 0,
      error_text: 'Success',
    });
    expect(await balanceOf(acct)).toBe(units('1.97'));

    const end = Date.now() + 15_000;
    let delivered: Body | undefined;
    while (!delivered && Date.now() < end) {
      const hit = receiver.received.find(
        (r) => r.url === '/insight' && r.body.includes(ack['request_id'] as string),
      );
      if (hit) {
        expect(hit.method).toBe('POST');
        expect(hit.headers['content-type']).toMatch(/json/);
        delivered = JSON.parse(hit.body) as Body;
      } else await new Promise((r) => setTimeout(r, 200));
    }
    expect(delivered, 'the callback was not delivered within 15 s').toBeDefined();
    expect(Object.keys(delivered!).sort()).toEqual([...ADVANCED].sort());
    expect(delivered).toMatchObject({
      status: 0,
      status_message: 'Success',
      request_id: ack['request_id'],
      international_format_number: '447700900102',
      reachable: 'absent',
      request_price: '0.03000000',
      remaining_balance: '1.97000000',
    });
    // Charged once only.
    expect(await balanceOf(acct)).toBe(units('1.97'));
  });

  it('answers the acknowledgement in XML', async () => {
    const acct = await newAccount({ balance: 1 });
    const res = await lookup('/ni/advanced/async/xml', acct, {
      number: '447700900123',
      callback: `${receiver.url}/insight-xml`,
    });
    const { root, body } = parseXml(res.text);
    expect(root).toBe('lookup');
    expect(body).toEqual({
      requestId: expect.any(String),
      number: '447700900123',
      remainingBalance: '0.97000000',
      requestPrice: '0.03000000',
      status: '0',
      error_text: 'Success',
    });
  });
});

describe('a sweep of numbers from many countries, against libphonenumber', () => {
  const COUNTRIES: CountryCode[] = [
    'GB',
    'US',
    'CA',
    'FR',
    'DE',
    'ES',
    'IT',
    'NL',
    'AU',
    'IN',
    'BR',
    'JP',
    'ZA',
    'MX',
    'SE',
    'CH',
    'PL',
    'NG',
    'SG',
    'AR',
  ];

  /** Ten valid numbers per country: its example mobile number with other final digits. */
  function sample() {
    const numbers: { country: CountryCode; e164: string }[] = [];
    for (const country of COUNTRIES) {
      const example = getExampleNumber(country, examples)!;
      const national = example.nationalNumber as string;
      let found = 0;
      for (let i = 0; found < 10 && i < 100; i++) {
        const tail = String((i * 37 + 11) % 1000).padStart(3, '0');
        const candidate = parsePhoneNumberFromString(national.slice(0, -3) + tail, country);
        if (candidate?.isValid() && candidate.country === country) {
          numbers.push({ country, e164: candidate.number });
          found++;
        }
      }
    }
    return numbers;
  }

  it('gives every number the country and formats libphonenumber gives it', async () => {
    const numbers = sample();
    expect(numbers.length).toBeGreaterThanOrEqual(190);
    const accounts = await Promise.all(Array.from({ length: 4 }, () => newAccount()));
    const mismatches: string[] = [];
    const check = async ({ country, e164 }: (typeof numbers)[number], i: number) => {
      const expected = parsePhoneNumberFromString(e164)!;
      // Half are asked in international form, half in national form with their country.
      const params: Record<string, string> =
        i % 2 === 0
          ? { number: expected.formatInternational() }
          : { number: expected.formatNational(), country };
      let body: Body;
      do {
        body = await lookupJson('/ni/basic/json', accounts[i % accounts.length]!, params);
        if (body['status'] === 1) await new Promise((r) => setTimeout(r, 1000));
      } while (body['status'] === 1);
      const want = {
        status: 0,
        country_code: expected.country,
        country_prefix: expected.countryCallingCode,
        international_format_number: e164.slice(1),
        national_format_number: expected.formatNational(),
      };
      const got = Object.fromEntries(Object.keys(want).map((k) => [k, body[k]]));
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        mismatches.push(`${params['number']}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      }
    };
    // Eight at a time, spread over four accounts, to stay near each account's 30 lookups a second.
    for (let start = 0; start < numbers.length; start += 8) {
      await Promise.all(numbers.slice(start, start + 8).map((n, j) => check(n, start + j)));
    }
    expect(mismatches).toEqual([]);
  }, 120_000);
});
