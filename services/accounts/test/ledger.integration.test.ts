import { parseAmount } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { get, newAccount, worker } from './helpers';

async function balanceOf(key: string, secret: string): Promise<number> {
  const res = await get(`/account/get-balance?api_key=${key}&api_secret=${secret}`);
  return ((await res.json()) as { value: number }).value;
}

describe('the usage ledger over RPC', () => {
  it('leaves the exact balance after 200 concurrent charges', async () => {
    const acct = await newAccount({ balance: 10 });
    const price = parseAmount('0.0333');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        worker.charge(acct.api_key, {
          product: 'SMS',
          direction: 'outbound',
          id: `msg-${i}`,
          amount: price,
          record: { to: '447700900000', text: `message ${i}` },
        }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    // 10 - 200 * 0.0333 = 3.34, exactly.
    expect(await balanceOf(acct.api_key, acct.api_secret)).toBe(3.34);
    const records = await worker.usage(acct.api_key, {
      product: 'SMS',
      direction: 'outbound',
      limit: 10_000,
    });
    expect(records).toHaveLength(200);
    expect(new Set(records.map((r) => r.id)).size).toBe(200);
  });

  it('refuses a charge the balance cannot cover, exactly at the boundary', async () => {
    const acct = await newAccount({ balance: 0.1 });
    const ok = await worker.charge(acct.api_key, {
      product: 'SMS',
      id: 'a',
      amount: parseAmount('0.1'),
      record: {},
    });
    expect(ok).toMatchObject({ ok: true, balance: 0 });
    const refused = await worker.charge(acct.api_key, { product: 'SMS', id: 'b', amount: 1, record: {} });
    expect(refused).toEqual({ ok: false, reason: 'insufficient-funds', balance: 0 });
    expect(await worker.usage(acct.api_key, { product: 'SMS' })).toHaveLength(1);
  });

  it('answers no-account for an unknown key', async () => {
    expect(await worker.charge('nobody00', { product: 'SMS', id: 'x', amount: 1, record: {} })).toMatchObject(
      {
        ok: false,
        reason: 'no-account',
      },
    );
  });

  it('refunds, filters usage by time, id and direction, and redacts personal fields', async () => {
    const acct = await newAccount({ balance: 1 });
    const before = Date.now();
    await worker.charge(acct.api_key, {
      product: 'VOICE-CALL',
      direction: 'outbound',
      id: 'call-1',
      amount: parseAmount('0.5'),
      record: { to: '447700900001', from: '447700900002', duration: 60 },
    });
    await worker.charge(acct.api_key, {
      product: 'VOICE-CALL',
      direction: 'inbound',
      id: 'call-2',
      amount: 0,
      record: {},
    });
    const refund = await worker.refund(acct.api_key, {
      product: 'VOICE-CALL',
      direction: 'outbound',
      id: 'call-1',
      amount: parseAmount('0.2'),
    });
    expect(refund).toMatchObject({ ok: true, balance: parseAmount('0.7') });

    expect(await worker.usage(acct.api_key, { product: 'VOICE-CALL', direction: 'inbound' })).toHaveLength(1);
    expect(await worker.usage(acct.api_key, { product: 'VOICE-CALL', ids: ['call-1'] })).toHaveLength(2);
    expect(
      await worker.usage(acct.api_key, { product: 'VOICE-CALL', from: before, to: Date.now() + 1000 }),
    ).toHaveLength(3);
    expect(await worker.usage(acct.api_key, { product: 'VOICE-CALL', from: Date.now() + 1000 })).toHaveLength(
      0,
    );

    expect(await worker.redactUsage(acct.api_key, 'call-1', 'VOICE-CALL')).toBe(true);
    const [charged] = await worker.usage(acct.api_key, { product: 'VOICE-CALL', ids: ['call-1'] });
    expect(charged?.redacted).toBe(true);
    expect(charged?.record).toEqual({ to: '**********', from: '**********', duration: 60 });
    expect(await worker.redactUsage(acct.api_key, 'nothing', 'VOICE-CALL')).toBe(false);
  });

  it("amends a charge's report fields, keeping redacted ones redacted", async () => {
    const acct = await newAccount();
    await worker.charge(acct.api_key, {
      product: 'VERIFY-API',
      id: 'req-1',
      amount: 0,
      record: { to: '447700900001', verify_status: 'IN PROGRESS' },
    });
    expect(
      await worker.amendUsage(acct.api_key, {
        product: 'VERIFY-API',
        id: 'req-1',
        record: { verify_status: 'SUCCESS' },
      }),
    ).toBe(true);
    const [row] = await worker.usage(acct.api_key, { product: 'VERIFY-API', ids: ['req-1'] });
    expect(row?.record).toEqual({ to: '447700900001', verify_status: 'SUCCESS' });
    await worker.redactUsage(acct.api_key, 'req-1', 'VERIFY-API');
    await worker.amendUsage(acct.api_key, {
      product: 'VERIFY-API',
      id: 'req-1',
      record: { to: '447700900001', verify_status: 'FAILED' },
    });
    const [after] = await worker.usage(acct.api_key, { product: 'VERIFY-API', ids: ['req-1'] });
    expect(after?.record).toEqual({ to: '**********', verify_status: 'FAILED' });
    expect(await worker.amendUsage(acct.api_key, { product: 'VERIFY-API', id: 'nope', record: {} })).toBe(
      false,
    );
  });

  it('grants throughput up to the account setting within any second', async () => {
    const acct = await newAccount({ settings: { 'max-outbound-request': 3 } });
    const grants = await Promise.all(
      Array.from({ length: 10 }, () => worker.takeThroughput(acct.api_key, 'outbound-sms')),
    );
    expect(grants.filter(Boolean)).toHaveLength(3);
    expect(await worker.takeThroughput(acct.api_key, 'pricing')).toBe(true);
    expect(await worker.takeThroughput(acct.api_key, 'pricing')).toBe(false);
  });

  it('wipes accounts on reset', async () => {
    const acct = await newAccount();
    expect(await worker.identity(acct.api_key)).toEqual({ apiKey: acct.api_key, primaryApiKey: null });
    await worker.reset();
    expect(await worker.identity(acct.api_key)).toBeNull();
  });
});
