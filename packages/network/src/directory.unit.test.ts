import {
  type CountryCode,
  getExampleNumber,
  type PhoneNumberType,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { e164, type LineType, type LookupResult, lookupNumber, type NumberInfo } from './directory';
import { magicBehaviour } from './magic';
import { networksOf } from './networks';
import { mobilePool } from './operators';

/** A successful lookup, or a failed test. */
function look(number: string, country?: string): NumberInfo {
  const result = lookupNumber(number, country);
  if (!result.ok) throw new Error(`${number} (${country}) failed: ${result.reason}`);
  return result;
}

const reasonOf = (result: LookupResult) => (result.ok ? 'ok' : result.reason);

describe('lookupNumber: reading the number', () => {
  it.each([
    ['+44 7400 123456', undefined],
    ['+44 7400-123-456', undefined],
    ['0044 7400 123456', undefined],
    ['00 44 7400.123.456', undefined],
    ['(+44) 7400 123456', undefined],
    ['+44 (0)7400 123456', undefined],
    ['447400123456', undefined],
    ['447400123456', 'GB'],
    ['+447400123456', 'GB'],
    ['07400 123456', 'GB'],
    ['(07400) 123-456', 'gb'],
    ['7400 123456', 'GB'],
    ['\t+44 7400 123456\n', undefined],
  ])('%j with country %j is 447400123456', (input, country) => {
    const info = look(input, country);
    expect(info.msisdn).toBe('447400123456');
    expect(info.input).toBe(input);
    expect(info.country).toEqual({ code: 'GB', alpha3: 'GBR', name: 'United Kingdom', prefix: '44' });
    expect(info.international).toBe('+44 7400 123456');
    expect(info.national).toBe('07400 123456');
  });

  it('reads NANP numbers nationally and internationally', () => {
    expect(look('(201) 555-0123', 'US').msisdn).toBe('12015550123');
    expect(look('201.555.0123', 'US').msisdn).toBe('12015550123');
    expect(look('1 201 555 0123', 'US').msisdn).toBe('12015550123');
    expect(look('+1 201-555-0123').msisdn).toBe('12015550123');
    expect(look('12015550123').national).toBe('(201) 555-0123');
    // A national number of the other NANP country is read, and reported as what it is.
    expect(look('416 555 0123', 'US').country.code).toBe('CA');
  });

  it('reads digits without + or 00 as international when no country is given', () => {
    const info = look('7400123456');
    expect(info.msisdn).toBe('7400123456');
    expect(info.country.prefix).toBe('7');
    // No calling code starts with 0, so a national number without its country cannot be read.
    expect(reasonOf(lookupNumber('07400123456'))).toBe('unparsable');
  });

  it('prefers the national reading when the digits are not a valid number of the country', () => {
    // 44 1234 567890 is not a valid German number as international (+44 is GB), so it is national DE.
    expect(look('441234567890', 'DE').msisdn).toBe('49441234567890');
    expect(look('612345678', 'FR').msisdn).toBe('33612345678');
    expect(look('33612345678', 'FR').msisdn).toBe('33612345678');
  });

  it('rejects an international number of another country than the one given', () => {
    expect(reasonOf(lookupNumber('+33 6 12 34 56 78', 'GB'))).toBe('country-mismatch');
    expect(reasonOf(lookupNumber('0033 612345678', 'DE'))).toBe('country-mismatch');
    expect(reasonOf(lookupNumber('+1 416 555 0123', 'US'))).toBe('country-mismatch');
    expect(reasonOf(lookupNumber('+1 201 555 0123', 'CA'))).toBe('country-mismatch');
    expect(reasonOf(lookupNumber('+44 7700 900123', 'JE'))).toBe('country-mismatch');
    expect(reasonOf(lookupNumber('+1 201 555 0123', 'US'))).toBe('ok');
    expect(reasonOf(lookupNumber('+44 7700 900123', 'GB'))).toBe('ok');
  });

  it('rejects unknown countries, given or dialled', () => {
    expect(reasonOf(lookupNumber('07400 123456', 'ZZ'))).toBe('unknown-country');
    expect(reasonOf(lookupNumber('07400 123456', 'GBR'))).toBe('unknown-country');
    // +800 is international freephone: no country.
    expect(reasonOf(lookupNumber('+800 1234 5678'))).toBe('unknown-country');
  });

  it.each([
    '',
    '   ',
    'call me',
    '+44 7400 12345a',
    '++447400123456',
    '+',
    '00',
    '44 7400+123456',
    '+44 7400 123456 ext 12',
    '+999 123456',
    '+44 7400 1234567890123',
    `+44${'1'.repeat(100)}`,
  ])('%j is unparsable', (input) => {
    expect(reasonOf(lookupNumber(input))).toBe('unparsable');
  });

  it('keeps country and formats for numbers that are not valid', () => {
    const info = look('+44 12');
    expect(info).toMatchObject({
      msisdn: '4412',
      valid: false,
      possible: false,
      lineType: 'unknown',
      originalCarrier: null,
      currentCarrier: null,
      ported: 'unknown',
      reachable: 'bad_number',
      validity: 'not_valid',
      roaming: { status: 'unknown' },
      callerIdentity: null,
      magic: null,
    });
    expect(info.country.code).toBe('GB');
    // Possible length but not an allocated range; libphonenumber cannot place +1 555 in a country.
    const nanp = look('+1 555 555 1234');
    expect(nanp).toMatchObject({ valid: false, possible: true, country: { code: 'US' } });
    expect(look('+1 555 555 1234', 'CA').country.code).toBe('CA');
  });
});

describe('lookupNumber: line types and carriers', () => {
  it('tells GB mobile, landline, toll-free and premium numbers apart', () => {
    const mobile = look('+44 7400 123456');
    expect(mobile.lineType).toBe('mobile');
    expect(mobile.originalCarrier?.networkType).toBe('mobile');
    expect(mobilePool('GB').map((w) => w.network.networkCode)).toContain(mobile.originalCarrier?.networkCode);
    expect(mobile.reachable).toBe('reachable');
    expect(['ported', 'not_ported']).toContain(mobile.ported);

    const fixed = { networkCode: 'GB-FIXED', name: 'United Kingdom Landline', country: 'GB' };
    const cases: Array<[string, LineType]> = [
      ['+44 20 7946 0000', 'landline'],
      ['+44 808 157 0000', 'landline_tollfree'],
      ['+44 909 879 0000', 'landline_premium'],
    ];
    for (const [number, lineType] of cases) {
      const info = look(number);
      expect(info).toMatchObject({
        valid: true,
        lineType,
        ported: 'assumed_not_ported',
        reachable: 'unknown',
        validity: 'valid',
        roaming: { status: 'unknown' },
        callerIdentity: null,
        lookupOutcome: 'success',
      });
      expect(info.originalCarrier).toEqual({ ...fixed, networkType: lineType });
      expect(info.currentCarrier).toEqual(info.originalCarrier);
    }
  });

  it('gives neighbouring mobile numbers the same original network', () => {
    const carriers = new Set(
      ['+44 7400 123456', '+44 7400 654321', '+44 7400 000001'].map(
        (n) => look(n).originalCarrier?.networkCode,
      ),
    );
    expect(carriers.size).toBe(1);
  });

  it('spreads mobile numbers over the major operators by share', () => {
    const counts = new Map<string, number>();
    for (let block = 7400; block < 8000; block++) {
      const info = look(`+44 ${block} 123456`);
      // The 07 range also holds the Crown Dependencies' mobiles, pagers and personal numbers.
      if (info.country.code !== 'GB' || info.lineType !== 'mobile') continue;
      const code = info.originalCarrier?.networkCode ?? 'none';
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['23410', '23415', '23420', '23430']);
    // EE (35%) outnumbers 3 (15%).
    expect(counts.get('23430')!).toBeGreaterThan(counts.get('23420')!);
  });

  it('names the NANP subscriber, stably, and nobody else', () => {
    const first = look('+1 202 555 0199').callerIdentity;
    expect(first).not.toBeNull();
    expect(look('(202) 555-0199', 'US').callerIdentity).toEqual(first);
    expect(look('+44 7400 123456').callerIdentity).toBeNull();
    expect(look('+49 170 1234567').callerIdentity).toBeNull();
    expect(look('+1 416 555 0123').callerIdentity?.type).not.toBe('unknown');

    let businesses = 0;
    for (let i = 0; i < 500; i++) {
      const identity = look(`+1 212 55${String(i).padStart(5, '0')}`).callerIdentity!;
      if (identity.type === 'business') {
        businesses++;
        expect(identity).toMatchObject({ firstName: '', lastName: '' });
        expect(identity.name).toMatch(/^[A-Z][a-z]+ [A-Z]/);
      } else {
        expect(identity.type).toBe('consumer');
        expect(identity.name).toBe(`${identity.firstName} ${identity.lastName}`);
        expect(identity.firstName).toMatch(/^[A-Z][a-z]+$/);
      }
    }
    expect(businesses).toBeGreaterThan(50);
    expect(businesses).toBeLessThan(150);
    // Toll-free numbers belong to businesses.
    expect(look('+1 800 555 0100').callerIdentity?.type).toBe('business');
  });

  it('answers the same twice, whatever the input form', () => {
    for (const number of ['+44 7400 123456', '+1 202 555 0199', '+49 170 1234567', '+91 98765 43210']) {
      const { input: _a, ...once } = look(number);
      const { input: _b, ...twice } = look(number);
      const { input: _c, ...compact } = look(number.replace(/\D/g, ''));
      expect(twice).toEqual(once);
      expect(compact).toEqual(once);
    }
  });

  it('makes ordinary valid mobiles reachable phones at home', () => {
    for (const number of ['+44 7400 123456', '+33 6 12 34 56 78', '+61 412 345 678', '+91 98765 43210']) {
      expect(look(number)).toMatchObject({
        valid: true,
        validity: 'valid',
        lineType: 'mobile',
        reachable: 'reachable',
        roaming: { status: 'not_roaming' },
        lookupOutcome: 'success',
        magic: null,
      });
    }
  });

  it('has no carrier for a mobile of a country without mobile networks', () => {
    expect(mobilePool('AC')).toEqual([]);
    expect(look('+247 40123')).toMatchObject({
      country: { code: 'AC' },
      valid: true,
      lineType: 'mobile',
      originalCarrier: null,
      currentCarrier: null,
      ported: 'unknown',
      reachable: 'reachable',
      lookupOutcome: 'partial',
    });
  });
});

describe('e164', () => {
  it('returns the digits or null', () => {
    expect(e164('+44 (0)7700 900123')).toBe('447700900123');
    expect(e164('07400 123456', 'GB')).toBe('447400123456');
    expect(e164('12')).toBeNull();
    expect(e164('not a number')).toBeNull();
    expect(e164('+33 6 12 34 56 78', 'GB')).toBeNull();
  });
});

/** The mapping the directory must agree with, written out independently of its own table. */
function expectedLineType(type: PhoneNumberType | undefined): LineType {
  switch (type) {
    case 'MOBILE':
    case 'FIXED_LINE_OR_MOBILE':
      return 'mobile';
    case 'FIXED_LINE':
      return 'landline';
    case 'PREMIUM_RATE':
      return 'landline_premium';
    case 'TOLL_FREE':
      return 'landline_tollfree';
    case 'VOIP':
      return 'virtual';
    case 'PAGER':
      return 'pager';
    default:
      return 'unknown';
  }
}

const SWEEP_COUNTRIES: CountryCode[] = [
  'GB',
  'US',
  'DE',
  'FR',
  'ES',
  'IT',
  'IN',
  'AU',
  'BR',
  'JP',
  'NL',
  'CA',
  'MX',
  'ZA',
];
/** Non-mobile seeds, so the sweep also covers the fixed types. */
const FIXED_SEEDS = [
  '+442079460000',
  '+448081570000',
  '+449098790000',
  '+18005550100',
  '+493023125000',
  '+33199000000',
  '+61255501234',
  '+390612345678',
  '+31201234567',
  '+34912345678',
  '+498001234567',
  '+819012345678',
];

/**
 * 1,000 distinct numbers: example numbers with their last 2-7 digits replaced by pseudo-random ones, a
 * fifth of them a digit longer or shorter.
 */
function sweepNumbers(): string[] {
  let seed = 20240611;
  const nextDigit = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return String((seed >>> 16) % 10);
  };
  const seeds = [...SWEEP_COUNTRIES.map((c) => getExampleNumber(c, examples)!.number), ...FIXED_SEEDS];
  const numbers = new Set<string>();
  for (let i = 0; numbers.size < 1000; i++) {
    const base = seeds[i % seeds.length]!;
    const replace = 2 + (i % 6);
    let tail = '';
    for (let d = 0; d < replace; d++) tail += nextDigit();
    // One in ten gains a digit and one in ten loses one: mostly numbers that are not valid.
    const length = i % 10 === 9 ? 1 : i % 10 === 8 ? -1 : 0;
    const number = (base.slice(0, -replace) + tail + nextDigit()).slice(0, base.length + length);
    if (!magicBehaviour(number.slice(1))) numbers.add(number);
  }
  return [...numbers];
}

describe('lookupNumber: a 1,000-number sweep', () => {
  const numbers = sweepNumbers();
  const rows = numbers.map((number) => ({
    number,
    parsed: parsePhoneNumberFromString(number)!,
    info: look(number),
  }));

  it('covers enough countries and types to mean something', () => {
    expect(numbers).toHaveLength(1000);
    expect(new Set(rows.map((r) => r.info.country.code)).size).toBeGreaterThanOrEqual(8);
    const byType = new Map<string, number>();
    for (const { info } of rows) byType.set(info.lineType, (byType.get(info.lineType) ?? 0) + 1);
    expect(byType.get('mobile')).toBeGreaterThan(400);
    expect(byType.get('landline')).toBeGreaterThan(30);
    expect(byType.get('landline_tollfree')).toBeGreaterThan(10);
    expect(byType.get('landline_premium')).toBeGreaterThan(5);
    expect(byType.get('unknown')).toBeGreaterThan(100);
  });

  it("agrees with libphonenumber's validity, type and formats", () => {
    for (const { number, parsed, info } of rows) {
      const context = `${number}: ${JSON.stringify(info)}`;
      expect(info.msisdn, context).toBe(number.slice(1));
      expect(info.valid, context).toBe(parsed.isValid());
      expect(info.possible, context).toBe(parsed.isPossible());
      expect(info.lineType, context).toBe(parsed.isValid() ? expectedLineType(parsed.getType()) : 'unknown');
      expect(info.international, context).toBe(parsed.formatInternational());
      expect(info.national, context).toBe(parsed.formatNational());
      if (parsed.country) expect(info.country.code, context).toBe(parsed.country);
      expect(info.validity, context).toBe(info.valid ? 'valid' : 'not_valid');
    }
  });

  it('puts every number on networks of its own country, of the right type', () => {
    for (const { number, info } of rows) {
      const context = `${number}: ${JSON.stringify(info)}`;
      const networks = networksOf(info.country.code);
      if (!info.valid) {
        expect(info.originalCarrier, context).toBeNull();
        expect(info.reachable, context).toBe('bad_number');
        continue;
      }
      for (const carrier of [info.originalCarrier, info.currentCarrier]) {
        expect(carrier, context).not.toBeNull();
        expect(carrier!.country, context).toBe(info.country.code);
        expect(carrier!.networkType, context).toBe(info.lineType);
        const network = networks.find((n) => n.networkCode === carrier!.networkCode);
        expect(network, context).toBeDefined();
        expect(network!.networkName, context).toBe(carrier!.name);
        expect(network!.type, context).toBe(info.lineType === 'mobile' ? 'mobile' : 'landline');
      }
      if (info.lineType === 'mobile') {
        expect(info.reachable, context).toBe('reachable');
        expect(info.roaming, context).toEqual({ status: 'not_roaming' });
        if (info.ported === 'not_ported') expect(info.currentCarrier, context).toEqual(info.originalCarrier);
        else {
          expect(info.ported, context).toBe('ported');
          expect(info.currentCarrier!.name, context).not.toBe(info.originalCarrier!.name);
        }
      } else {
        expect(info.ported, context).toBe('assumed_not_ported');
        expect(info.reachable, context).toBe('unknown');
      }
      expect(info.callerIdentity === null, context).toBe(!['US', 'CA'].includes(info.country.code));
    }
  });

  it('ports between 3% and 15% of mobile numbers', () => {
    const mobiles = rows.filter((r) => r.info.lineType === 'mobile');
    const ported = mobiles.filter((r) => r.info.ported === 'ported').length;
    expect(ported / mobiles.length).toBeGreaterThanOrEqual(0.03);
    expect(ported / mobiles.length).toBeLessThanOrEqual(0.15);
  });
});
