import type { AccountIdentity, Product, UsageQuery, UsageRecord } from '@comms/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { app } from './app';

/** Stands in for the ledger: accounts `primary1` (waits the default) and `quick001` (waits 0 s), `demoacct` in demo mode. */
class FakeAccounts {
  readonly identities = new Map<string, AccountIdentity>(
    ['primary1', 'quick001', 'demoacct'].map((k) => [k, { apiKey: k, primaryApiKey: null }]),
  );
  readonly usageRows: (UsageRecord & { owner: string })[] = [];
  readonly redacted: [string, string, Product][] = [];
  allowance = Number.POSITIVE_INFINITY;

  async verifySecret(apiKey: string, secret: string) {
    return secret === 'Secret123' ? (this.identities.get(apiKey) ?? null) : null;
  }
  async signatureSettings() {
    return null;
  }
  async takeAllowance() {
    return this.allowance-- > 0;
  }
  async flags(apiKey: string) {
    return { demoMode: apiKey === 'demoacct', pinCodeAllowed: false };
  }
  async redactionSettings(apiKey: string) {
    return { waitSeconds: apiKey === 'quick001' ? 0 : null };
  }
  async usage(apiKey: string, query: UsageQuery) {
    return this.usageRows.filter(
      (r) =>
        r.owner === apiKey &&
        r.product === query.product &&
        (!query.direction || r.direction === query.direction) &&
        (!query.ids || query.ids.includes(r.id)),
    );
  }
  async redactUsage(apiKey: string, id: string, product: Product) {
    this.redacted.push([apiKey, id, product]);
    return true;
  }
  record(
    owner: string,
    id: string,
    product: Product,
    direction: 'inbound' | 'outbound' | null,
    ageMs: number,
  ) {
    this.usageRows.push({
      owner,
      seq: this.usageRows.length + 1,
      id,
      product,
      direction,
      amount: 0,
      createdAt: Date.now() - ageMs,
      record: {},
      redacted: false,
    });
  }
}

let accounts: FakeAccounts;
let smsCalls: unknown[][];
const env = () => ({
  ACCOUNTS: accounts,
  REDACT_AFTER_SECONDS: '3600',
  SMS: {
    async redactTransaction(...args: unknown[]) {
      smsCalls.push(args);
      return true;
    },
  },
  INSIGHT: { redactTransaction: async () => true },
});

beforeEach(() => {
  accounts = new FakeAccounts();
  smsCalls = [];
  accounts.record('primary1', 'OLD-MT', 'SMS', 'outbound', 2 * 3600_000);
  accounts.record('primary1', 'NEW-MT', 'SMS', 'outbound', 60_000);
  accounts.record('quick001', 'JUST-NOW', 'SMS', 'inbound', 10);
  accounts.record('quick001', 'call-1', 'VOICE-CALL', 'outbound', 10);
  accounts.record('demoacct', 'DEMO-MT', 'SMS', 'outbound', 2 * 3600_000);
});

async function redact(body: unknown, key = 'primary1', secret = 'Secret123') {
  const res = await app.request(
    'http://redact/v1/redact/transaction',
    {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${key}:${secret}`)}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    env(),
  );
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe('POST /v1/redact/transaction', () => {
  it('redacts an SMS older than the waiting time: 204, the family copy and the ledger scrubbed', async () => {
    expect(await redact({ id: 'OLD-MT', product: 'sms', type: 'outbound' })).toEqual({
      status: 204,
      body: null,
    });
    expect(smsCalls).toEqual([['primary1', 'OLD-MT', 'outbound']]);
    expect(accounts.redacted).toEqual([['primary1', 'OLD-MT', 'SMS']]);
  });

  it("accepts the official SDK's enum spellings (SMS, Outbound, NumberInsight)", async () => {
    expect((await redact({ id: 'OLD-MT', product: 'SMS', type: 'Outbound' })).status).toBe(204);
    expect(smsCalls).toEqual([['primary1', 'OLD-MT', 'outbound']]);
    accounts.record('quick001', 'ni-1', 'NUMBER-INSIGHT', null, 10);
    expect((await redact({ id: 'ni-1', product: 'NumberInsight' }, 'quick001')).status).toBe(204);
    expect(accounts.redacted).toContainEqual(['quick001', 'ni-1', 'NUMBER-INSIGHT']);
  });

  it('refuses a transaction younger than the waiting time with 403 premature-redaction', async () => {
    const res = await redact({ id: 'NEW-MT', product: 'sms', type: 'outbound' });
    expect(res).toMatchObject({
      status: 403,
      body: {
        type: 'https://developer.nexmo.com/api-errors/redact#premature-redaction',
        title: 'Premature Redaction',
        detail: "You must wait 60 minutes before redacting ID 'NEW-MT'",
      },
    });
    expect(res.body?.['instance']).toBeTruthy();
    expect(accounts.redacted).toEqual([]);
  });

  it("takes the account's shorter waiting time, and scrubs only the ledger of an unbound family", async () => {
    expect((await redact({ id: 'JUST-NOW', product: 'sms', type: 'inbound' }, 'quick001')).status).toBe(204);
    expect((await redact({ id: 'call-1', product: 'voice' }, 'quick001')).status).toBe(204);
    expect(accounts.redacted).toContainEqual(['quick001', 'call-1', 'VOICE-CALL']);
  });

  it.each([
    [
      'an unknown id',
      { id: 'NOPE', product: 'sms', type: 'outbound' },
      "ID 'NOPE' could not be found (type=MT)",
    ],
    [
      'the wrong direction',
      { id: 'OLD-MT', product: 'sms', type: 'inbound' },
      "ID 'OLD-MT' could not be found (type=MO)",
    ],
    [
      'a product without such a record',
      { id: 'OLD-MT', product: 'verify' },
      "ID 'OLD-MT' could not be found",
    ],
  ])('answers 404 invalid-id for %s', async (_what, body, detail) => {
    expect(await redact(body)).toMatchObject({
      status: 404,
      body: { type: 'https://developer.nexmo.com/api-errors#invalid-id', title: 'Invalid ID', detail },
    });
  });

  it.each([
    ['a body that is not JSON', '{"id": "x",', 'invalid-json', []],
    ['an array', '[]', 'invalid-json', []],
    ['no id', { product: 'sms', type: 'outbound' }, 'invalid-json', ['id']],
    ['no product', { id: 'x' }, 'invalid-json', ['product']],
    ['an SMS without type', { id: 'x', product: 'sms' }, 'invalid-json', ['type']],
    ['a type that is neither', { id: 'x', product: 'sms', type: 'sideways' }, 'invalid-json', ['type']],
    ['an unknown product', { id: 'x', product: 'sms2' }, 'invalid-product', ['product']],
  ])('answers 422 for %s', async (_what, body, kind, names) => {
    const res = await redact(body);
    expect(res.status).toBe(422);
    expect(String(res.body?.['type'])).toMatch(new RegExp(`#${kind}$`));
    expect(((res.body?.['invalid_parameters'] as { name: string }[]) ?? []).map((p) => p.name)).toEqual(
      names,
    );
  });

  it('names the product in invalid-product as the reference does', async () => {
    expect((await redact({ id: 'x', product: 'sms2' })).body).toMatchObject({
      title: 'Invalid Product',
      detail: 'No product corresponding to supplied string sms2!',
    });
  });

  it('answers 403 unprovisioned for an account in demo mode', async () => {
    expect(await redact({ id: 'DEMO-MT', product: 'sms', type: 'outbound' }, 'demoacct')).toMatchObject({
      status: 403,
      body: {
        type: 'https://developer.nexmo.com/api-errors#unprovisioned',
        detail: 'User=demoacct is not provisioned to redact product=SMS',
      },
    });
  });

  it('answers 401 in the reference shape, and 429 beyond the allowance', async () => {
    expect(
      await redact({ id: 'OLD-MT', product: 'sms', type: 'outbound' }, 'primary1', 'wrong'),
    ).toMatchObject({
      status: 401,
      body: { type: 'UNAUTHORIZED', error_title: 'Unauthorized' },
    });
    accounts.allowance = 0;
    expect(await redact({ id: 'OLD-MT', product: 'sms', type: 'outbound' })).toMatchObject({
      status: 429,
      body: { type: 'https://developer.nexmo.com/api-errors/redact#rate-limit', title: 'Rate Limit Hit' },
    });
  });
});
