import type { ReportableUsage } from '@comms/core';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ZipWriter } from './archive';
import { csvLine, csvRows } from './csv';
import { recordShape, reportDate, reportRecord } from './records';

function usage(init: Partial<Omit<ReportableUsage, 'record'>> & { record: object }): ReportableUsage {
  return {
    seq: 1,
    id: 'ID1',
    product: 'SMS',
    direction: 'outbound',
    amount: 3_330_000,
    refunded: 0,
    createdAt: Date.UTC(2026, 0, 1, 10, 0, 5),
    redacted: false,
    ...init,
    record: JSON.stringify(init.record),
  };
}

const SMS_RECORD = {
  message_id: 'ID1',
  client_ref: 'ref-1',
  direction: 'outbound',
  from: 'Acme',
  to: '447700900001',
  text: 'Hello',
  country: 'GB',
  country_name: 'United Kingdom',
  network: '23410',
  network_name: 'O2',
  price: '0.03330000',
  currency: 'EUR',
  status: 'delivered',
  date_received: '2026-01-01T10:00:05.123Z',
};

describe('report records from ledger entries', () => {
  it('shapes an outbound SMS as the reference lists it, with its price and no text unless asked', () => {
    const shape = recordShape({ product: 'SMS', direction: 'outbound', includeMessage: false });
    const record = reportRecord(shape, usage({ record: SMS_RECORD }), 'abcd1234');
    expect(Object.keys(record)).toEqual([...shape.fields]);
    expect(record).toMatchObject({
      account_id: 'abcd1234',
      message_id: 'ID1',
      client_ref: 'ref-1',
      account_ref: null,
      to: '447700900001',
      date_received: '2026-01-01T10:00:05+00:00',
      date_finalized: null,
      status: 'delivered',
      error_code: '0',
      error_code_description: 'Delivered',
      total_price: '0.03330000',
    });
    expect(record).not.toHaveProperty('message_body');
  });

  it("shows an SMS's receipt once the network has reached it, and the message in flight before", () => {
    const shape = recordShape({ product: 'SMS', direction: 'outbound', includeMessage: false });
    const failed = {
      ...SMS_RECORD,
      status: 'failed',
      date_finalized: '2026-01-01T10:00:06.123Z',
      latency: 1000,
      error_code: '12',
      error_code_description: 'Destination Unreachable',
    };
    const after = reportRecord(shape, usage({ record: failed }), 'abcd1234', Date.UTC(2026, 0, 1, 10, 0, 7));
    expect(after).toMatchObject({
      status: 'failed',
      date_finalized: '2026-01-01T10:00:06+00:00',
      latency: 1000,
      error_code: '12',
      error_code_description: 'Destination Unreachable',
    });
    const before = reportRecord(shape, usage({ record: failed }), 'abcd1234', Date.UTC(2026, 0, 1, 10, 0, 6));
    expect(before).toMatchObject({
      status: 'accepted',
      date_finalized: null,
      latency: null,
      error_code: null,
      error_code_description: null,
    });
  });

  it('adds message_body after to with include_message, and nets refunds into total_price', () => {
    const shape = recordShape({ product: 'SMS', direction: 'inbound', includeMessage: true });
    const record = reportRecord(
      shape,
      usage({ direction: 'inbound', amount: 1000, refunded: 400, record: { ...SMS_RECORD, text: 'Hi' } }),
      'abcd1234',
    );
    expect(Object.keys(record).slice(3, 6)).toEqual(['from', 'to', 'message_body']);
    expect(record).toMatchObject({ message_body: 'Hi', total_price: '0.00000600', direction: 'inbound' });
  });

  it('shows a redacted record as scrubbed', () => {
    const shape = recordShape({ product: 'SMS', direction: 'outbound', includeMessage: true });
    const scrubbed = { ...SMS_RECORD, to: '**********', text: '**********' };
    const record = reportRecord(shape, usage({ redacted: true, record: scrubbed }), 'abcd1234');
    expect(record).toMatchObject({ to: '**********', message_body: '**********' });
  });

  it('fills the spec 2.14 fields of calls and verify requests from what the family recorded', () => {
    const voice = reportRecord(
      recordShape({ product: 'VOICE-CALL', includeMessage: false }),
      usage({
        id: 'call-1',
        product: 'VOICE-CALL',
        amount: 2_000_000,
        record: {
          from: '441',
          to: '442',
          duration: '60',
          status: 'completed',
          price: '0.01',
          date_start: '2026-01-01 10:00:00',
        },
      }),
      'abcd1234',
    );
    expect(voice).toMatchObject({
      call_id: 'call-1',
      duration: '60',
      price: '0.01',
      total_price: '0.02000000',
      date_start: '2026-01-01T10:00:00+00:00',
      network: null,
    });
    const verify = reportRecord(
      recordShape({ product: 'VERIFY-API', includeMessage: false }),
      usage({
        id: 'req-1',
        product: 'VERIFY-API',
        direction: null,
        amount: 5_000_000,
        record: { verify_status: 'SUCCESS' },
      }),
      'abcd1234',
    );
    expect(verify).toMatchObject({ request_id: 'req-1', verify_status: 'SUCCESS', price: '0.05000000' });
    expect(Object.keys(verify)).toHaveLength(21);
  });

  it('reads the vendor date formats and leaves others alone', () => {
    expect(reportDate('2026-04-20 10:00:05')).toBe('2026-04-20T10:00:05+00:00');
    expect(reportDate('2026-04-20T12:00:05+02:00')).toBe('2026-04-20T10:00:05+00:00');
    expect(reportDate('soon')).toBe('soon');
    expect(reportDate(null)).toBeNull();
  });
});

describe('the report file', () => {
  it('writes CSV by RFC 4180', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', null, 3, true])).toBe('a,"b,c","say ""hi""",,3,true\r\n');
    expect(csvRows(['x', 'y'], [{ x: 1 }, { y: 'line\nbreak' }])).toBe('1,\r\n,"line\nbreak"\r\n');
  });

  it('zips text written in pieces into one file that unzips whole', () => {
    const chunks: Uint8Array[] = [];
    const zip = new ZipWriter('report.csv', (bytes) => chunks.push(bytes));
    const piece = 'account_id,message_id\r\n'.repeat(5000);
    zip.write(piece);
    zip.write(piece);
    zip.close();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const files = unzipSync(bytes);
    expect(Object.keys(files)).toEqual(['report.csv']);
    expect(strFromU8(files['report.csv']!)).toBe(piece + piece);
    expect(bytes.length).toBeLessThan(piece.length / 10);
  });
});
