import { parseAmount, type UsageReportingRpc } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { newAccount, worker } from './helpers';

/** The same worker, typed by the reporting surface that reports and redact use. */
const reporting = worker as unknown as UsageReportingRpc;

describe('the ledger as reports and redact read it', () => {
  it('pages through a window in time order, nets refunds in and leaves them out', async () => {
    const acct = await newAccount({ balance: 10 });
    const start = Date.now();
    for (let i = 0; i < 5; i++) {
      await worker.charge(acct.api_key, {
        product: 'SMS',
        direction: 'outbound',
        id: `m-${i}`,
        amount: parseAmount('0.1'),
        record: { to: '447700900001', status: i % 2 ? 'failed' : 'delivered' },
      });
    }
    await worker.refund(acct.api_key, {
      product: 'SMS',
      direction: 'outbound',
      id: 'm-1',
      amount: parseAmount('0.04'),
    });
    const query = {
      product: 'SMS' as const,
      direction: 'outbound' as const,
      from: start,
      to: Date.now() + 1,
    };
    const first = await reporting.usagePage(acct.api_key, { ...query, limit: 3 });
    expect(first.records.map((r) => r.id)).toEqual(['m-0', 'm-1', 'm-2']);
    expect(first.records[1]).toMatchObject({ amount: parseAmount('0.1'), refunded: parseAmount('0.04') });
    expect(JSON.parse(first.records[0]!.record)).toMatchObject({ status: 'delivered' });
    expect(first.next).not.toBeNull();
    const second = await reporting.usagePage(acct.api_key, { ...query, limit: 3, after: first.next! });
    expect(second.records.map((r) => r.id)).toEqual(['m-3', 'm-4']);
    expect(second.next).toBeNull();

    const failed = await reporting.usagePage(acct.api_key, { ...query, fields: { status: 'failed' } });
    expect(failed.records.map((r) => r.id)).toEqual(['m-1', 'm-3']);
    const byId = await reporting.usagePage(acct.api_key, { product: 'SMS', ids: ['m-4', 'nope'] });
    expect(byId.records.map((r) => r.id)).toEqual(['m-4']);
  });

  it('files a charge under the time its usage began when the family says so (a call charged at its end)', async () => {
    const acct = await newAccount({ balance: 10 });
    const began = Date.now() - 30 * 60_000;
    await worker.charge(acct.api_key, {
      product: 'VOICE-CALL',
      direction: 'outbound',
      id: 'call-late',
      amount: parseAmount('0.5'),
      record: { status: 'completed' },
      occurredAt: began,
    });
    await worker.charge(acct.api_key, {
      product: 'VOICE-CALL',
      direction: 'outbound',
      id: 'call-now',
      amount: parseAmount('0.1'),
      record: { status: 'completed' },
    });
    const window = (from: number, to: number) =>
      reporting.usagePage(acct.api_key, { product: 'VOICE-CALL', from, to });
    const early = await window(began - 1000, began + 1000);
    expect(early.records.map((r) => [r.id, r.createdAt])).toEqual([['call-late', began]]);
    const all = await window(began - 1000, Date.now() + 1);
    expect(all.records.map((r) => r.id)).toEqual(['call-late', 'call-now']);
  });

  it('seeds synthetic records across a window without touching the balance', async () => {
    const acct = await newAccount({ balance: 1 });
    const to = Date.now();
    expect(await reporting.seedUsage(acct.api_key, { count: 2500, from: to - 3600_000, to })).toBe(2500);
    let pages = 0;
    let seen = 0;
    let after: { createdAt: number; seq: number } | undefined;
    do {
      const page = await reporting.usagePage(acct.api_key, {
        product: 'SMS',
        direction: 'outbound',
        from: to - 3600_000,
        to,
        ...(after ? { after } : {}),
      });
      pages++;
      seen += page.records.length;
      after = page.next ?? undefined;
    } while (after);
    expect({ pages, seen }).toEqual({ pages: 3, seen: 2500 });
    // More ids than a statement may bind parameters (100).
    const some = await reporting.usagePage(acct.api_key, { product: 'SMS', limit: 150 });
    const ids = some.records.map((r) => r.id);
    const byIds = await reporting.usagePage(acct.api_key, { product: 'SMS', ids: [...ids, 'missing'] });
    expect(byIds.records.map((r) => r.id)).toEqual(ids);
    const res = await worker.fetch(
      new Request(
        `https://rest.example.test/account/get-balance?api_key=${acct.api_key}&api_secret=${acct.api_secret}`,
      ),
    );
    expect(((await res.json()) as { value: number }).value).toBe(1);
  });

  it('grants the reports and redact allowances per second, the sandbox able to change them', async () => {
    const vendor = await newAccount();
    const grants = await Promise.all(
      Array.from({ length: 15 }, () => reporting.takeAllowance(vendor.api_key, 'reports')),
    );
    expect(grants.filter(Boolean)).toHaveLength(10);
    const tight = await newAccount({ rate_limits: { redact: 2 } });
    const redacts = await Promise.all(
      Array.from({ length: 5 }, () => reporting.takeAllowance(tight.api_key, 'redact')),
    );
    expect(redacts.filter(Boolean)).toHaveLength(2);
    expect(await reporting.takeAllowance('nobody00', 'reports')).toBe(false);
  });

  it('keeps the redaction waiting time and lists secondary accounts', async () => {
    const primary = await newAccount();
    const quick = await newAccount({ primary_api_key: primary.api_key, redact_after_seconds: 0 });
    expect(await reporting.redactionSettings(primary.api_key)).toEqual({ waitSeconds: null });
    expect(await reporting.redactionSettings(quick.api_key)).toEqual({ waitSeconds: 0 });
    expect(await reporting.redactionSettings('nobody00')).toBeNull();
    expect(await reporting.secondaryAccounts(primary.api_key)).toEqual([quick.api_key]);
    expect(await worker.createSandboxAccount({ redact_after_seconds: -1 })).toMatchObject({ ok: false });
    expect(
      await worker.createSandboxAccount({ rate_limits: { bogus: 1 } as unknown as { reports: number } }),
    ).toMatchObject({ ok: false });
  });
});
