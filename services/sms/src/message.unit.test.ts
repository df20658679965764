import { describe, expect, it } from 'vitest';
import { readSubmission } from './message';
import { SmsRefusal } from './status';

const base = { from: 'Acme', to: '447700900001', text: 'hello' };

function refusal(params: Record<string, string>): { status: number; text: string } {
  try {
    readSubmission(params);
  } catch (err) {
    if (err instanceof SmsRefusal) return { status: err.status, text: err.text };
    throw err;
  }
  throw new Error('accepted');
}

describe('reading an SMS submission', () => {
  it('reads the fields with their defaults', () => {
    const sms = readSubmission({ ...base, to: '+44 7700900001'.replace(' ', '') });
    expect(sms).toMatchObject({
      from: 'Acme',
      fromIsNumber: false,
      to: '447700900001',
      type: 'text',
      ttl: 259_200_000,
    });
    expect(sms.statusReportReq).toBe(true);
    expect(sms.parts).toEqual(['hello']);
  });

  it('ignores spaces of an alphanumeric sender and keeps numbers as numbers', () => {
    expect(readSubmission({ ...base, from: 'My Shop' }).from).toBe('MyShop');
    expect(readSubmission({ ...base, from: '+447700900002' })).toMatchObject({
      from: '447700900002',
      fromIsNumber: true,
    });
  });

  it('refuses missing fields with 2 and invalid ones with 3', () => {
    expect(refusal({ from: 'Acme', to: '447700900001' })).toEqual({ status: 2, text: 'Missing text param' });
    expect(refusal({ to: '447700900001', text: 'x' }).status).toBe(2);
    expect(refusal({ ...base, to: '123' }).status).toBe(3);
    expect(refusal({ ...base, ttl: '19999' }).status).toBe(3);
    expect(refusal({ ...base, ttl: '604800001' }).status).toBe(3);
    expect(refusal({ ...base, 'status-report-req': 'maybe' }).status).toBe(3);
    expect(refusal({ ...base, 'client-ref': 'x'.repeat(41) }).status).toBe(3);
    expect(refusal({ ...base, type: 'vcard', vcard: 'not a card' }).status).toBe(3);
  });

  it('refuses a bad callback with 23 and a message of more than 30 parts with 12', () => {
    expect(refusal({ ...base, callback: 'ftp://example.com' }).status).toBe(23);
    expect(refusal({ ...base, text: 'x'.repeat(153 * 30 + 1) }).status).toBe(12);
    expect(readSubmission({ ...base, text: 'x'.repeat(153 * 30) }).parts).toHaveLength(30);
  });

  it('sends unicode as UCS-2 and binary bodies in 140-octet parts', () => {
    expect(readSubmission({ ...base, text: 'ж'.repeat(71) }).parts).toHaveLength(2);
    expect(readSubmission({ ...base, type: 'unicode', text: 'a'.repeat(71) }).parts).toHaveLength(2);
    const binary = readSubmission({ ...base, type: 'binary', body: '00'.repeat(200), udh: '' });
    expect(binary.parts).toHaveLength(2);
    expect(refusal({ ...base, type: 'binary', body: '00', udh: '', 'protocol-id': '127' }).status).toBe(3);
  });
});
