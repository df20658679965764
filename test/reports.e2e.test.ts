import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncReportStatus, Direction, Product, Reports } from '@vonage/reports';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  basic,
  newAccount,
  onVendorHost,
  sdkOptions,
  stack,
  startReceiver,
  until,
} from './helpers';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const reportsClient = (a: Account) =>
  new Reports({ apiKey: a.api_key, apiSecret: a.api_secret }, sdkOptions());

/** Raw `POST /sms/json` with Basic credentials; answers the first part's fields. */
async function sendSms(a: Account, to: string, text: string): Promise<Record<string, string>> {
  const res = await fetch(`${stack.url}/sms/json`, {
    method: 'POST',
    headers: { authorization: basic(a.api_key, a.api_secret), 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'Acme', to, text }),
  });
  const body = (await res.json()) as { messages: Record<string, string>[] };
  expect(body.messages[0]?.['status']).toBe('0');
  return body.messages[0]!;
}

/** A window of the last hour and the next minute, which holds what was just sent. */
function window() {
  const now = Date.now();
  return { dateStart: new Date(now - 3600_000).toISOString(), dateEnd: new Date(now + 60_000).toISOString() };
}

/** Raw `GET /v2/reports/records`, for the rules the SDK's types would not let a caller break. */
async function rawRecords(a: Account, query: Record<string, string>) {
  const res = await fetch(`${stack.url}/v2/reports/records?${new URLSearchParams(query)}`, {
    headers: { authorization: basic(a.api_key, a.api_secret) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('synchronous reports through @vonage/reports', () => {
  it('finds an SMS sent a moment ago, with its price and its text', async () => {
    const acct = await newAccount();
    const sent = await sendSms(acct, '447700900021', 'Report me');
    const report = await reportsClient(acct).getRecords({
      product: Product.SMS,
      accountId: acct.api_key,
      direction: Direction.OUTBOUND,
      includeMessage: true,
      ...window(),
    });
    expect(report).toMatchObject({ requestStatus: 'SUCCESS', itemsCount: 1, product: 'SMS' });
    expect(report.records?.[0]).toMatchObject({
      accountId: acct.api_key,
      messageId: sent['message-id'],
      to: '447700900021',
      messageBody: 'Report me',
      totalPrice: sent['message-price'],
      currency: 'EUR',
      network: sent['network'],
    });
  });

  it("shows an SMS in flight as accepted, then with its receipt's time, latency and error code", async () => {
    const acct = await newAccount();
    // The magic suffix 201 fails at the network one second after submission.
    const sent = await sendSms(acct, '447700900201', 'Fail me');
    const query = {
      product: 'SMS',
      account_id: acct.api_key,
      direction: 'outbound',
      date_start: window().dateStart,
      date_end: window().dateEnd,
    };
    const first = await rawRecords(acct, query);
    expect((first.body['records'] as Record<string, unknown>[])[0]).toMatchObject({
      message_id: sent['message-id'],
      status: 'accepted',
      date_finalized: null,
      latency: null,
      error_code: null,
    });
    await new Promise((r) => setTimeout(r, 1500));
    const later = await rawRecords(acct, query);
    const record = (later.body['records'] as Record<string, unknown>[])[0]!;
    expect(record).toMatchObject({
      status: 'failed',
      latency: 1000,
      error_code: '8',
      error_code_description: 'Network Error',
    });
    const received = Date.parse(String(record['date_received']));
    expect(Date.parse(String(record['date_finalized'])) - received).toBeGreaterThanOrEqual(0);
    expect(Date.parse(String(record['date_finalized'])) - received).toBeLessThanOrEqual(2000);
  });

  it('answers by id with ids_not_found, and lets a primary account read its secondary', async () => {
    const primary = await newAccount();
    const secondary = await newAccount({ primary_api_key: primary.api_key });
    const sent = await sendSms(secondary, '447700900022', 'From the secondary');
    const byId = await reportsClient(primary).getRecords({
      product: Product.SMS,
      accountId: secondary.api_key,
      direction: Direction.OUTBOUND,
      id: `${sent['message-id']},0A00000000000000`,
    } as Parameters<Reports['getRecords']>[0]);
    expect(byId).toMatchObject({ itemsCount: 1, idsNotFound: '0A00000000000000' });
    expect(byId.records?.[0]).toMatchObject({ accountId: secondary.api_key, messageId: sent['message-id'] });
    const refused = await reportsClient(secondary)
      .getRecords({
        product: Product.SMS,
        accountId: primary.api_key,
        direction: Direction.OUTBOUND,
        ...window(),
      })
      .catch((err) => err.response.status);
    expect(refused).toBe(403);
  });

  it('refuses every query rule of spec 4.12 with a problem body naming the parameter', async () => {
    const acct = await newAccount({ rate_limits: { reports: 1000 } });
    const { dateStart, dateEnd } = window();
    const base = {
      account_id: acct.api_key,
      product: 'SMS',
      direction: 'outbound',
      date_start: dateStart,
      date_end: dateEnd,
    };
    const day = { date_start: dateStart, date_end: dateEnd };
    const plusDay = new Date(Date.parse(dateStart) + 24 * 3600_000 + 1000).toISOString();
    const cases: [Record<string, string>, string][] = [
      [{ ...base, account_id: '' }, 'account_id'],
      [{ ...base, product: '' }, 'product'],
      [{ ...base, product: 'FAX' }, 'product'],
      [{ ...base, direction: '' }, 'direction'],
      [{ ...base, product: 'MESSAGES', direction: '' }, 'direction'],
      [{ ...base, product: 'NUMBER-INSIGHT' }, 'direction'],
      [{ ...base, product: 'VERIFY-API' }, 'direction'],
      [{ ...base, product: 'CONVERSATIONS', type: 'ip-voice' }, 'direction'],
      [{ ...base, date_end: '' }, 'date_end'],
      [{ ...base, date_start: '' }, 'date_start'],
      [{ ...base, date_start: '2026-01-01T00:00:00' }, 'date_start'],
      [{ ...base, date_end: plusDay }, 'date_end'],
      [{ ...base, date_end: dateStart }, 'date_end'],
      [{ ...base, product: 'NUMBER-INSIGHT', direction: '', include_message: 'true' }, 'include_message'],
      [{ ...base, product: 'CONVERSATIONS', direction: '' }, 'type'],
      [{ ...base, type: 'ip-voice' }, 'type'],
      [{ ...base, product: 'VOICE-CALL', status: 'delivered' }, 'status'],
      [{ ...base, status: 'lost' }, 'status'],
    ];
    for (const [query, name] of cases) {
      const res = await rawRecords(
        acct,
        Object.fromEntries(Object.entries(query).filter(([, v]) => v !== '')),
      );
      expect([res.status, res.body['title'], res.body['invalid_parameters']], JSON.stringify(query)).toEqual([
        422,
        'Unprocessable entity',
        expect.arrayContaining([expect.objectContaining({ name })]),
      ]);
    }
    // `id` excludes `status`, `date_start` and `date_end`.
    for (const extra of [day, { status: 'delivered' }]) {
      const res = await rawRecords(acct, {
        account_id: acct.api_key,
        product: 'SMS',
        direction: 'outbound',
        id: 'X',
        ...extra,
      });
      expect(res).toMatchObject({ status: 422, body: { title: 'Invalid filter' } });
    }
    // Direction is optional for VOICE-CALL, so this one is fine.
    expect((await rawRecords(acct, { ...base, product: 'VOICE-CALL', direction: 'inbound' })).status).toBe(
      200,
    );
  });

  it('allows 10 synchronous requests a second per account (429 beyond)', async () => {
    const acct = await newAccount();
    const client = reportsClient(acct);
    const statuses = await Promise.all(
      Array.from({ length: 15 }, () =>
        client
          .getRecords({ product: Product.NUMBER_INSIGHT, accountId: acct.api_key, ...window() })
          .then(() => 200)
          .catch((err) => err.response.status as number),
      ),
    );
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
  });
});

describe('asynchronous reports through @vonage/reports', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('creates a report that completes, calls back, and downloads as a zipped CSV', async () => {
    const acct = await newAccount();
    const sent = await sendSms(acct, '447700900023', 'Async, "quoted"');
    const client = reportsClient(acct);
    const created = await client.createReport({
      product: Product.SMS,
      accountId: acct.api_key,
      direction: Direction.OUTBOUND,
      includeMessage: true,
      callbackUrl: `${receiver.url}/report-done`,
      ...window(),
    } as Parameters<Reports['createReport']>[0]);
    expect(created.requestStatus).toBe(AsyncReportStatus.PENDING);
    const done = await until(
      () => client.getReport(created.requestId),
      (r) => r.requestStatus === AsyncReportStatus.SUCCESS,
    );
    expect(done).toMatchObject({ requestStatus: 'SUCCESS', itemsCount: 1 });
    const href = done.links.downloadReport?.href;
    expect(href).toBeTruthy();

    // Fetched directly here; the SDK's getReportData, which takes only vendor hosts, is the next test.
    const res = await fetch(href!, { headers: { authorization: basic(acct.api_key, acct.api_secret) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`SMS_${created.requestId}.zip`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const [name] = Object.keys(files);
    expect(name).toMatch(new RegExp(`^report_SMS_${acct.api_key}_\\d{8}\\.csv$`));
    const [header, row] = strFromU8(files[name!]!).trimEnd().split('\r\n');
    const columns = header!.split(',');
    expect(columns.slice(0, 2)).toEqual(['account_id', 'message_id']);
    expect(row).toContain(sent['message-id']);
    expect(row).toContain('"Async, ""quoted"""');
    expect(row!.endsWith(`,EUR,${sent['message-price']}`)).toBe(true);

    const callback = await until(
      async () => receiver.received.filter((r) => r.url === '/report-done'),
      (r) => r.length > 0,
    );
    expect(JSON.parse(callback[0]!.body)).toMatchObject({
      request_id: created.requestId,
      request_status: 'SUCCESS',
      items_count: 1,
    });
  });

  it("downloads the finished report with the SDK's getReportData on the vendor host name", async () => {
    const acct = await newAccount();
    const sent = await sendSms(acct, '447700900024', 'Through the SDK');
    const dir = mkdtempSync(join(tmpdir(), 'report-'));
    await onVendorHost(async (apiHost) => {
      const client = new Reports({ apiKey: acct.api_key, apiSecret: acct.api_secret }, { apiHost });
      const created = await client.createReport({
        product: Product.SMS,
        accountId: acct.api_key,
        direction: Direction.OUTBOUND,
        ...window(),
      } as Parameters<Reports['createReport']>[0]);
      await until(
        () => client.getReport(created.requestId),
        (r) => r.requestStatus === AsyncReportStatus.SUCCESS,
      );
      const path = join(dir, 'report.zip');
      await client.getReportData(created.requestId, path);
      const files = unzipSync(new Uint8Array(readFileSync(path)));
      const csv = strFromU8(Object.values(files)[0]!);
      expect(csv).toContain(sent['message-id']);
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
  });

  it('cancels a pending report, then answers 409 to a second cancel', async () => {
    const acct = await newAccount();
    const client = reportsClient(acct);
    const created = await client.createReport({ product: Product.NUMBER_INSIGHT, accountId: acct.api_key });
    expect((await client.cancelReport(created.requestId)).requestStatus).toBe(AsyncReportStatus.ABORTED);
    const again = await client.cancelReport(created.requestId).catch((err) => err.response.status);
    expect(again).toBe(409);
  });
});
