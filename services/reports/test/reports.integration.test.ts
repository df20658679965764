import { runDurableObjectAlarm } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

/** The worker under test and the accounts stub of vitest.config.ts (ledger from 2026-01-01T00:00:00Z). */
const worker = exports.default as unknown as { fetch(request: Request): Promise<Response> };
const sink = (env as unknown as { WEBHOOKS_SINK: Fetcher }).WEBHOOKS_SINK;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field, as a client would.
type Body = Record<string, any>;

const auth = (key: string, secret = 'Secret123') => ({ authorization: `Basic ${btoa(`${key}:${secret}`)}` });

async function call(method: string, path: string, key = 'primary1', body?: unknown) {
  const headers: Record<string, string> = { ...auth(key) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await worker.fetch(
    new Request(`https://api.example.test${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    }),
  );
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    headers: res.headers,
    body: json ? ((await res.json()) as Body) : {},
    bytes: json ? new ArrayBuffer(0) : await res.arrayBuffer(),
  };
}

const records = (query: string, key?: string) => call('GET', `/v2/reports/records?${query}`, key);
const DAY = 'date_start=2026-01-01T00:00:00Z&date_end=2026-01-02T00:00:00Z';
const SMS = `account_id=primary1&product=SMS&direction=outbound&${DAY}`;

describe('GET /v2/reports/records', () => {
  it('answers the envelope and a page of 1,000 records, with a next link that pages through the rest', async () => {
    const first = await records(SMS);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      request_status: 'SUCCESS',
      price: 0,
      currency: 'EUR',
      account_id: 'primary1',
      product: 'SMS',
      direction: 'outbound',
      include_message: false,
      items_count: 1000,
    });
    expect(first.body['request_id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body['records'][0]).toMatchObject({
      account_id: 'primary1',
      message_id: 'PRIMARY100000000',
      to: '447700900000',
      date_received: '2026-01-01T00:00:00+00:00',
      total_price: '0.02330000',
    });
    const seen = [...first.body['records']];
    let next: string | undefined = first.body['_links'].next?.href;
    while (next) {
      const page = await call('GET', new URL(next).pathname + new URL(next).search);
      seen.push(...page.body['records']);
      next = page.body['_links'].next?.href;
    }
    expect(seen).toHaveLength(2500);
    expect(new Set(seen.map((r) => r.message_id)).size).toBe(2500);
  });

  it('filters by status, shows text with include_message, and answers ids with ids_not_found', async () => {
    const failed = await records(`${SMS}&status=failed&include_message=true`);
    expect(failed.body['records'].every((r: { status: string }) => r.status === 'failed')).toBe(true);
    expect(failed.body['records'][0]).toMatchObject({ message_body: 'Hello, "world" 2' });
    const byId = await records('account_id=primary1&product=SMS&direction=outbound&id=PRIMARY100000007,NOPE');
    expect(byId.body).toMatchObject({ items_count: 1, ids_not_found: 'NOPE' });
  });

  it('lets a primary account read its secondary account, and no one else', async () => {
    const secondary = await records(`account_id=second01&product=SMS&direction=outbound&${DAY}`);
    expect(secondary.status).toBe(200);
    expect(secondary.body['records'][0]).toMatchObject({ account_id: 'second01' });
    const other = await records(`account_id=other001&product=SMS&direction=outbound&${DAY}`);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ title: 'Forbidden' });
    const upward = await records(`account_id=primary1&product=SMS&direction=outbound&${DAY}`, 'second01');
    expect(upward.status).toBe(403);
  });

  it('answers NUMBER-INSIGHT records with their fields', async () => {
    const ni = await records(`account_id=primary1&product=NUMBER-INSIGHT&${DAY}`);
    expect(ni.body['items_count']).toBe(3);
    expect(ni.body['records'][0]).toMatchObject({
      request_id: 'ni-0',
      product_type: 'STANDARD',
      total_price: '0.00500000',
    });
  });

  it('answers a problem body naming the parameter, 401 without credentials', async () => {
    const missing = await records(`account_id=primary1&product=SMS&${DAY}`);
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      title: 'Unprocessable entity',
      invalid_parameters: [{ name: 'direction', reason: 'Missing required parameter' }],
    });
    expect(missing.body['instance']).toBeTruthy();
    const unauthenticated = await records(SMS, 'nobody00');
    expect(unauthenticated.status).toBe(401);
  });

  it('allows 10 synchronous requests a second per account (429 beyond)', async () => {
    const query = `account_id=limited1&product=NUMBER-INSIGHT&${DAY}`;
    const statuses = await Promise.all(Array.from({ length: 14 }, () => records(query, 'limited1')));
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(10);
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(4);
  });
});

/** Runs the report book's alarms until the report leaves PENDING and PROCESSING. */
async function settle(root: string, id: string, key = root) {
  const stub = env.REPORT_BOOK.get(env.REPORT_BOOK.idFromName(root));
  for (let i = 0; i < 50; i++) {
    const report = await call('GET', `/v2/reports/${id}`, key);
    if (!['PENDING', 'PROCESSING'].includes(report.body['request_status'])) return report.body;
    await new Promise((r) => setTimeout(r, 20));
    await runDurableObjectAlarm(stub);
  }
  throw new Error('report did not finish');
}

async function unzip(
  href: string,
  key = 'primary1',
): Promise<{ name: string; files: Record<string, string> }> {
  const res = await call('GET', new URL(href).pathname, key);
  expect(res.status).toBe(200);
  const bytes = unzipSync(new Uint8Array(res.bytes));
  const files = Object.fromEntries(Object.entries(bytes).map(([k, v]) => [k, strFromU8(v)]));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? '';
  return { name, files };
}

describe('asynchronous reports', () => {
  it('moves PENDING -> PROCESSING -> SUCCESS, calls back, and serves the zipped CSV', async () => {
    const created = await call('POST', '/v2/reports', 'primary1', {
      product: 'SMS',
      account_id: 'primary1',
      direction: 'outbound',
      date_start: '2026-01-01T00:00:00Z',
      date_end: '2026-01-03T00:00:00Z',
      include_subaccounts: true,
      include_message: true,
      callback_url: 'https://client.example.test/reports',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      request_status: 'PENDING',
      product: 'SMS',
      include_subaccounts: true,
    });
    const id = created.body['request_id'];
    const report = await settle('primary1', id);
    expect(report).toMatchObject({ request_status: 'SUCCESS', items_count: 5000 });
    expect(report['start_time']).toBeTruthy();

    const { name, files } = await unzip(report['_links'].download_report.href);
    expect(name).toBe(`SMS_${id}.zip`);
    const [csvName] = Object.keys(files);
    expect(csvName).toMatch(/^report_SMS_primary1_\d{8}\.csv$/);
    const lines = files[csvName!]!.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'account_id,message_id,client_ref,account_ref,direction,from,to,message_body,network,network_name,country,country_name,date_received,date_finalized,latency,status,error_code,error_code_description,currency,total_price',
    );
    expect(lines).toHaveLength(5001);
    expect(lines[1]).toContain('"Hello, ""world"" 0"');
    expect(lines.some((l) => l.startsWith('second01,'))).toBe(true);

    const jobs = await waitForJobs(id);
    expect(jobs[0]).toMatchObject({
      kind: 'reports-callback',
      url: 'https://client.example.test/reports',
      body: { request_id: id, request_status: 'SUCCESS', items_count: 5000 },
    });

    const list = await call('GET', '/v2/reports?account_id=primary1&status=SUCCESS,FAILED');
    expect(list.body['reports'].map((r: { request_id: string }) => r.request_id)).toContain(id);
    expect((await call('DELETE', `/v2/reports/${id}`)).status).toBe(409);
  });

  it('cancels a PENDING report (ABORTED), then refuses to cancel it again with 409', async () => {
    const created = await call('POST', '/v2/reports', 'primary1', {
      product: 'NUMBER-INSIGHT',
      account_id: 'primary1',
    });
    const id = created.body['request_id'];
    const cancelled = await call('DELETE', `/v2/reports/${id}`);
    expect(cancelled.body).toMatchObject({ request_status: 'ABORTED' });
    const again = await call('DELETE', `/v2/reports/${id}`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ title: 'Invalid Abort Operation' });
  });

  it('fails a report whose ledger keeps failing', async () => {
    const created = await call('POST', '/v2/reports', 'failing1', {
      product: 'SMS',
      account_id: 'failing1',
      direction: 'inbound',
    });
    const stub = env.REPORT_BOOK.get(env.REPORT_BOOK.idFromName('failing1'));
    for (let i = 0; i < 40; i++) {
      const report = await call('GET', `/v2/reports/${created.body['request_id']}`, 'failing1');
      if (report.body['request_status'] === 'FAILED') return;
      await new Promise((r) => setTimeout(r, 100));
      await runDurableObjectAlarm(stub);
    }
    throw new Error('report did not fail');
  });

  it('answers 400 for malformed JSON, 422 for bad filters, 404 for unknown or foreign reports', async () => {
    expect((await call('POST', '/v2/reports', 'primary1', '{nope')).body).toMatchObject({
      title: 'Malformed JSON',
    });
    const bad = await call('POST', '/v2/reports', 'primary1', {
      account_id: 'primary1',
      product: 'SMS',
      id: 'x',
    });
    expect(bad.status).toBe(422);
    expect(bad.body['invalid_parameters'].map((p: { name: string }) => p.name)).toEqual(['direction', 'id']);
    expect((await call('GET', `/v2/reports/${crypto.randomUUID()}`)).status).toBe(404);
    const mine = await call('POST', '/v2/reports', 'primary1', {
      product: 'NUMBER-INSIGHT',
      account_id: 'primary1',
    });
    expect((await call('GET', `/v2/reports/${mine.body['request_id']}`, 'other001')).status).toBe(404);
    expect((await call('GET', '/v2/reports?account_id=primary1')).status).toBe(400);
  });
});

async function waitForJobs(reportId: string) {
  for (let i = 0; i < 50; i++) {
    const jobs = (await (await sink.fetch('https://sink.test/')).json()) as { id: string }[];
    const mine = jobs.filter((j) => j.id === `report-${reportId}`);
    if (mine.length) return mine as Record<string, unknown>[];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no callback job');
}
