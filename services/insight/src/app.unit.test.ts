import type {
  AccountIdentity,
  AccountSettings,
  ChargeRequest,
  RefundRequest,
  TransactRequest,
  TransactResult,
  WebhookJob,
} from '@comms/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app } from './app';

/**
 * The routes against a stand-in for the accounts service and the queue: status codes, what is
 * charged and when, and what is enqueued. The real services are exercised by the end-to-end suite.
 */
class FakeAccounts {
  balance = 10_0000_0000;
  charges: ChargeRequest[] = [];
  refunds: RefundRequest[] = [];
  throughputLeft = Number.POSITIVE_INFINITY;
  failCharge = false;
  readonly identities = new Map<string, AccountIdentity>([
    ['primary1', { apiKey: 'primary1', primaryApiKey: null }],
    ['demoacct', { apiKey: 'demoacct', primaryApiKey: null }],
  ]);
  readonly demo = new Set(['demoacct']);

  async verifySecret(apiKey: string, secret: string) {
    return secret === 'Secret123' ? (this.identities.get(apiKey) ?? null) : null;
  }
  async signatureSettings() {
    return null;
  }
  async transact(apiKey: string, request: TransactRequest): Promise<TransactResult> {
    if (this.failCharge) throw new Error('ledger down');
    if (request.throughput && this.throughputLeft-- <= 0) {
      return { ok: false, reason: 'throttled', balance: this.balance };
    }
    if (request.refuseDemo && this.demo.has(apiKey))
      return { ok: false, reason: 'demo-mode', balance: this.balance };
    const total = request.charges.reduce((sum, charge) => sum + charge.amount, 0);
    if (total > this.balance) return { ok: false, reason: 'insufficient-funds', balance: this.balance };
    this.balance -= total;
    this.charges.push(...request.charges);
    return { ok: true, balances: [this.balance], settings: {} as AccountSettings };
  }
  async refund(_apiKey: string, request: RefundRequest) {
    this.balance += request.amount;
    this.refunds.push(request);
    return { ok: true as const, balance: this.balance, recordId: 0 };
  }
}

let accounts: FakeAccounts;
let jobs: WebhookJob[];
let queueDown: boolean;
const env = () => ({
  ACCOUNTS: accounts,
  WEBHOOKS_QUEUE: {
    send: async (job: WebhookJob) => {
      if (queueDown) throw new Error('queue down');
      jobs.push(job);
    },
  },
});

afterEach(() => {
  vi.restoreAllMocks();
});

beforeEach(() => {
  accounts = new FakeAccounts();
  jobs = [];
  queueDown = false;
});

const CREDS = 'api_key=primary1&api_secret=Secret123';

async function get(path: string, creds = CREDS) {
  const res = await app.request(`http://insight${path}${path.includes('?') ? '&' : '?'}${creds}`, {}, env());
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function post(path: string, body: string, type: string) {
  const res = await app.request(
    `http://insight${path}`,
    { method: 'POST', body, headers: { 'content-type': type } },
    env(),
  );
  return { status: res.status, text: await res.text() };
}

describe('Number Insight routes', () => {
  it('answers a lookup and charges its price once, under the request id', async () => {
    const { status, body } = await get('/ni/standard/json?number=447700900123');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 0, status_message: 'Success', request_price: '0.00500000' });
    expect(accounts.charges).toHaveLength(1);
    expect(accounts.charges[0]).toMatchObject({
      product: 'NUMBER-INSIGHT',
      id: body['request_id'],
      amount: 500000,
    });
    expect(body['remaining_balance']).toBe('9.99500000');
  });

  it('records a free basic lookup with a zero charge', async () => {
    await get('/ni/basic/json?number=447700900123');
    expect(accounts.charges).toEqual([expect.objectContaining({ amount: 0, product: 'NUMBER-INSIGHT' })]);
  });

  it('accepts form and JSON bodies', async () => {
    const form = await post(
      '/ni/basic/json',
      `number=447700900123&${CREDS}`,
      'application/x-www-form-urlencoded',
    );
    expect(JSON.parse(form.text)).toMatchObject({ status: 0, country_code: 'GB' });
    const json = await post(
      '/ni/basic/json',
      JSON.stringify({ number: '+1 (201) 555-0123', api_key: 'primary1', api_secret: 'Secret123' }),
      // `text/x-json`, also listed by spec 4.4, is not read by core's readParams yet.
      'text/json',
    );
    expect(JSON.parse(json.text)).toMatchObject({ status: 0, country_code: 'US' });
  });

  it('takes the SDK spelling cname as cnam', async () => {
    const { body } = await get('/ni/standard/json?number=12015550123&cname=true');
    expect(body).toHaveProperty('caller_identity');
    expect(body['request_price']).toBe('0.01500000');
  });

  it.each([
    ['a missing number', 3, '/ni/basic/json?country=GB'],
    ['a number with letters', 3, '/ni/basic/json?number=44abc'],
    ['a lower-case country', 3, '/ni/basic/json?number=07700900123&country=gb'],
    ['an unknown country', 3, '/ni/basic/json?number=07700900123&country=ZZ'],
    ['a country other than the number’s', 3, '/ni/basic/json?number=%2B447700900123&country=FR'],
    ['a bad cnam', 3, '/ni/standard/json?number=447700900123&cnam=maybe'],
    ['a bad ip', 3, '/ni/advanced/json?number=447700900123&ip=999.1.1.1'],
    ['a missing callback', 3, '/ni/advanced/async/json?number=447700900123'],
    ['a callback that is no URL', 3, '/ni/advanced/async/json?number=447700900123&callback=nowhere'],
    ['a number no plan reads', 999, '/ni/basic/json?number=%2B999123456'],
    ['a national number without its country', 999, '/ni/basic/json?number=07700900123'],
  ])('answers %s with status %i and charges nothing', async (_what, code, path) => {
    const { status, body } = await get(path);
    expect(status).toBe(200);
    expect(body['status']).toBe(code);
    expect(body['error_text']).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('status_message');
    expect(accounts.charges).toHaveLength(0);
  });

  it('answers 3 for no credentials and 4 for wrong ones', async () => {
    expect((await get('/ni/basic/json?number=447700900123', '')).body['status']).toBe(3);
    expect(
      (await get('/ni/basic/json?number=447700900123', 'api_key=primary1&api_secret=nope')).body,
    ).toMatchObject({ status: 4, error_text: expect.any(String) });
  });

  it('answers 999 for a JSON body that cannot be parsed', async () => {
    const { text } = await post('/ni/basic/json', '{"number":', 'application/json');
    expect(JSON.parse(text)).toMatchObject({ status: 999 });
  });

  it('answers 1 with status_message past the allowance, and charges nothing', async () => {
    accounts.throughputLeft = 0;
    const { body } = await get('/ni/advanced/json?number=447700900123');
    expect(body).toMatchObject({ status: 1, status_message: expect.any(String) });
    expect(body).not.toHaveProperty('error_text');
    expect(accounts.charges).toHaveLength(0);
  });

  it('answers 9 when the balance cannot pay', async () => {
    accounts.balance = 100;
    expect((await get('/ni/advanced/json?number=447700900123')).body['status']).toBe(9);
    // Basic is free, so it still works.
    expect((await get('/ni/basic/json?number=447700900123')).body['status']).toBe(0);
  });

  it('answers 19 to an account in demo mode for the paid levels only', async () => {
    const creds = 'api_key=demoacct&api_secret=Secret123';
    expect((await get('/ni/standard/json?number=447700900123', creds)).body['status']).toBe(19);
    expect(
      (await get('/ni/advanced/async/json?number=447700900123&callback=http://x.test', creds)).body['status'],
    ).toBe(19);
    expect((await get('/ni/basic/json?number=447700900123', creds)).body['status']).toBe(0);
  });

  it('answers 5 when the ledger fails, hiding the cause', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    accounts.failCharge = true;
    const { status, body } = await get('/ni/standard/json?number=447700900123');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 5, error_text: 'Internal error' });
  });

  it('renders failures in XML for the xml format', async () => {
    const res = await app.request('http://insight/ni/standard/xml?number=abc', {}, env());
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/xml/);
    expect(text).toMatch(
      /<lookup>\s*<request_id>[0-9a-f-]{36}<\/request_id>\s*<error code="3">[^<]+<\/error>/,
    );
    const basic = await (await app.request('http://insight/ni/basic/xml?number=1', {}, env())).text();
    expect(basic).toMatch(/<format>[\s\S]*<error code="3">/);
  });

  it('answers an unknown format or path with a 404', async () => {
    expect((await app.request(`http://insight/ni/basic/html?${CREDS}&number=1`, {}, env())).status).toBe(404);
    expect((await app.request(`http://insight/ni/premium/json?${CREDS}&number=1`, {}, env())).status).toBe(
      404,
    );
  });
});

describe('the asynchronous advanced lookup', () => {
  it('acknowledges, charges, and enqueues the full result for the callback', async () => {
    const { body } = await get('/ni/advanced/async/json?number=447700900102&callback=https://example.com/ni');
    expect(body).toEqual({
      request_id: expect.any(String),
      number: '447700900102',
      remaining_balance: '9.97000000',
      request_price: '0.03000000',
      status: 0,
      error_text: 'Success',
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      accountKey: 'primary1',
      kind: 'insight-async',
      url: 'https://example.com/ni',
      method: 'POST',
      encoding: 'json',
      signing: 'none',
      body: { request_id: body['request_id'], status: 0, reachable: 'absent', lookup_outcome: 0 },
    });
  });

  it('acknowledges refusals in its own shape', async () => {
    const { body } = await get('/ni/advanced/async/json?number=%2B999123456&callback=https://example.com/ni');
    expect(body).toEqual({
      request_id: expect.any(String),
      number: '+999123456',
      status: 999,
      error_text: expect.any(String),
    });
    const xml = await (
      await app.request('http://insight/ni/advanced/async/xml?number=1&callback=https://x.test', {}, env())
    ).text();
    expect(xml).toMatch(
      /<lookup>\s*<requestId>[^<]+<\/requestId>\s*<number>1<\/number>\s*<status>3<\/status>/,
    );
  });

  it('refunds and answers 5 when the queue cannot take the result', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    queueDown = true;
    const { body } = await get('/ni/advanced/async/json?number=447700900123&callback=https://example.com/ni');
    expect(body['status']).toBe(5);
    expect(accounts.refunds).toEqual([
      expect.objectContaining({ amount: 3000000, product: 'NUMBER-INSIGHT' }),
    ]);
    expect(accounts.balance).toBe(10_0000_0000);
  });
});
