import { toXml } from '@comms/core';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { callerOf, findNumber, type Insight, ipMatch, liveLookupStatus } from './insight';
import type { Level } from './pricing';
import { quote } from './pricing';
import { usageRecord } from './record';
import { asyncAckJson, asyncAckXml, insightJson, insightXml } from './render';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

function insightOf(number: string, level: Level, options: { cnam?: boolean; ip?: string } = {}): Insight {
  const info = findNumber({ number, cnam: options.cnam ?? false });
  const status = liveLookupStatus(info, level);
  return {
    level,
    requestId: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
    status,
    info,
    caller: callerOf(info, level, options.cnam ?? false),
    quote: quote({
      level,
      cnam: options.cnam ?? false,
      cnamAvailable: info.country.code === 'US',
      lookupFailed: status === 45,
    }),
    balance: 123456789,
    ...(options.ip ? { ip: ipMatch(options.ip, info) } : {}),
  };
}

/** The XML body, serialised by the routes' own builder and read back as a client's parser would. */
function xmlOf(r: Insight) {
  return (parser.parse(toXml('lookup', insightXml(r))) as { lookup: Record<string, unknown> }).lookup;
}

describe('insightJson', () => {
  it('has exactly the basic fields at basic level', () => {
    expect(insightJson(insightOf('447700900123', 'basic'))).toEqual({
      status: 0,
      status_message: 'Success',
      request_id: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
      international_format_number: '447700900123',
      national_format_number: '07700 900123',
      country_code: 'GB',
      country_code_iso3: 'GBR',
      country_name: 'United Kingdom',
      country_prefix: '44',
    });
  });

  it('adds prices, carriers and porting at standard level, and caller fields only with cnam', () => {
    const plain = insightJson(insightOf('447700900100', 'standard'));
    expect(plain).toMatchObject({
      request_price: '0.00500000',
      refund_price: '0.00000000',
      remaining_balance: '1.23456789',
      ported: 'ported',
      original_carrier: { country: 'GB', network_type: 'mobile' },
      current_carrier: { country: 'GB', network_type: 'mobile' },
    });
    expect(plain).not.toHaveProperty('caller_identity');
    expect(plain).not.toHaveProperty('lookup_outcome');
    const us = insightJson(insightOf('12015550123', 'standard', { cnam: true }));
    const identity = us['caller_identity'] as Record<string, string>;
    expect(identity['caller_type']).toMatch(/^(consumer|business)$/);
    for (const key of ['caller_type', 'caller_name', 'first_name', 'last_name']) {
      expect(us[key]).toBe(identity[key]);
    }
  });

  it('reports roaming as an object, or the string unknown', () => {
    const roaming = insightJson(insightOf('12015550101', 'advanced'));
    expect(roaming['roaming']).toMatchObject({ status: 'roaming', roaming_country_code: 'CA' });
    expect(insightJson(insightOf('12015550123', 'advanced'))['roaming']).toEqual({ status: 'not_roaming' });
    expect(insightJson(insightOf('12015550105', 'advanced'))['roaming']).toBe('unknown');
  });

  it('gives the live lookup statuses with error_text', () => {
    const failed = insightJson(insightOf('447700900108', 'advanced'));
    expect(failed).toMatchObject({
      status: 45,
      lookup_outcome: 2,
      lookup_outcome_message: 'Failed',
      request_price: '0.00000000',
      refund_price: '0.03000000',
    });
    expect(failed).toHaveProperty('error_text');
    expect(failed).not.toHaveProperty('status_message');
    expect(insightJson(insightOf('447700900105', 'advanced'))).toMatchObject({
      status: 43,
      lookup_outcome: 1,
    });
    expect(insightJson(insightOf('447700900107', 'advanced'))).toMatchObject({
      status: 44,
      valid_number: 'inferred_not_valid',
    });
  });

  it('shows ip_match_level and ip_country only when ip was given', () => {
    const without = insightJson(insightOf('447700900123', 'advanced'));
    expect(without['ip_warnings']).toBe('unknown');
    expect(without).not.toHaveProperty('ip_match_level');
    expect(insightJson(insightOf('447700900123', 'advanced', { ip: '198.51.100.9' }))).toMatchObject({
      ip: '198.51.100.9',
      ip_warnings: 'no_warning',
      ip_match_level: 'Country Level',
      ip_country: 'GB',
    });
    expect(insightJson(insightOf('447700900123', 'advanced', { ip: '8.8.8.8' }))).toMatchObject({
      ip_match_level: 'Mismatch',
      ip_country: 'unknown',
    });
  });
});

describe('insightXml', () => {
  it('carries the same data as the JSON, in the reference elements and attributes', () => {
    const r = insightOf('12015550101', 'advanced', { cnam: true, ip: '203.0.113.1' });
    const json = insightJson(r);
    const xml = xmlOf(r);
    expect(xml['request_id']).toBe(json['request_id']);
    expect(xml['international_format_number']).toBe(json['international_format_number']);
    expect(xml['local_number']).toEqual({
      '#text': json['national_format_number'],
      '@country_code': json['country_code'],
      '@country_code_iso3': json['country_code_iso3'],
      '@country_name': json['country_name'],
      '@country_prefix': json['country_prefix'],
    });
    expect(xml['error']).toEqual({ '#text': 'Success', '@code': '0' });
    for (const key of ['request_price', 'refund_price', 'remaining_balance', 'ported', 'reachable']) {
      expect(xml[key]).toBe(json[key]);
    }
    const carrier = json['current_carrier'] as Record<string, string>;
    expect(xml['current_carrier']).toEqual(
      Object.fromEntries(Object.entries(carrier).map(([k, v]) => [`@${k}`, v])),
    );
    const caller = json['caller_identity'] as Record<string, string>;
    expect(xml['caller_identity']).toEqual({
      '@caller-type': caller['caller_type'],
      '@caller-name': caller['caller_name'],
      '@first-name': caller['first_name'],
      '@last-name': caller['last_name'],
    });
    expect(xml['firs_name']).toBe(caller['first_name']);
    expect(xml['caller_name']).toBe(caller['caller_name']);
    expect(xml['lookup_outcome']).toEqual({ '#text': 'Success', '@code': '0' });
    expect(xml['valid_number']).toBe('valid');
    expect(xml['roaming']).toMatchObject({ '@status': 'roaming', '@roaming_country_code': 'CA' });
    expect(xml['ip_match_level']).toBe('Country Level');
  });

  it('nests the caller elements inside caller_identity at standard level', () => {
    const xml = xmlOf(insightOf('12015550123', 'standard', { cnam: true }));
    expect(xml['caller_identity']).toMatchObject({
      caller_name: expect.any(String),
      caller_type: expect.any(String),
    });
    expect(xml).not.toHaveProperty('caller_name');
    expect(xml).not.toHaveProperty('lookup_outcome');
  });

  it('leaves unknown carrier attributes out', () => {
    const xml = xmlOf(insightOf('447700900105', 'advanced'));
    expect(xml['current_carrier']).toEqual({ '@country': 'GB', '@network_type': 'mobile' });
    expect(xml['roaming']).toBe('unknown');
    expect(xml['error']).toMatchObject({ '@code': '43' });
  });
});

describe('the asynchronous acknowledgement', () => {
  it('has the reference fields, with error_text, and camel-case XML names', () => {
    const r = insightOf('447700900123', 'advanced');
    expect(asyncAckJson(r, '+44 7700 900123')).toEqual({
      request_id: r.requestId,
      number: '+44 7700 900123',
      remaining_balance: '1.23456789',
      request_price: '0.03000000',
      status: 0,
      error_text: 'Success',
    });
    expect(Object.keys(asyncAckXml(r, 'x'))).toEqual([
      'requestId',
      'number',
      'remainingBalance',
      'requestPrice',
      'status',
      'error_text',
    ]);
  });
});

describe('usageRecord', () => {
  it('has the reports fields of NUMBER-INSIGHT', () => {
    const r = insightOf('12015550123', 'advanced', { cnam: true });
    const record = usageRecord(r, 'abcd1234', new Date('2026-01-02T03:04:05Z'));
    expect(record).toMatchObject({
      account_id: 'abcd1234',
      request_id: r.requestId,
      product_type: 'ADVANCED',
      number: '12015550123',
      date_received: '2026-01-02T03:04:05.000Z',
      status: 'Success',
      response_code: '0',
      country: 'US',
      valid: 'valid',
      ported: 'not_ported',
      reachable: 'reachable',
      currency: 'EUR',
      total_price: '0.04000000',
    });
    expect(record['network']).toMatch(/^\d{5,6}$/);
    expect(record['first_name']).toBe(r.caller?.firstName);
    const basic = usageRecord(insightOf('447700900123', 'basic'), 'abcd1234', new Date());
    expect(basic).toMatchObject({
      product_type: 'BASIC',
      network: null,
      valid: null,
      total_price: '0.00000000',
    });
  });
});
