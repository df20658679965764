import { Accounts, Secrets } from '@vonage/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, newAccount, sdkOptions, stack, startReceiver } from './helpers';

describe('accounts through @vonage/accounts', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver((req) => (req.url?.startsWith('/broken') ? 500 : 200));
  });
  afterAll(() => receiver.close());

  it('reads the demo balance', async () => {
    const accounts = new Accounts(
      { apiKey: stack.demo.api_key, apiSecret: stack.demo.api_secret },
      sdkOptions(),
    );
    const balance = await accounts.getBalance();
    expect(balance.value).toBeGreaterThan(0);
    expect(balance.autoReload).toBe(false);
  });

  it('refuses a wrong secret with 401', async () => {
    const accounts = new Accounts({ apiKey: stack.demo.api_key, apiSecret: 'WrongSecret1' }, sdkOptions());
    await expect(accounts.getBalance()).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('tops up only with auto-reload enabled', async () => {
    const plain = await newAccount();
    const noReload = new Accounts({ apiKey: plain.api_key, apiSecret: plain.api_secret }, sdkOptions());
    await expect(noReload.topUpBalance('00X123456Y7890123Z')).rejects.toMatchObject({
      response: { status: 401 },
    });

    const reloading = await newAccount({ balance: 2.5, auto_reload: true });
    const client = new Accounts({ apiKey: reloading.api_key, apiSecret: reloading.api_secret }, sdkOptions());
    expect(await client.topUpBalance('00X123456Y7890123Z')).toEqual({
      'error-code': '200',
      'error-code-label': 'success',
    });
    expect(await client.getBalance()).toEqual({ value: 5, autoReload: true });
  });

  it('saves callback URLs that answer 200, refuses ones that do not, and unsets with an empty string', async () => {
    const acct = await newAccount();
    const client = new Accounts({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
    const saved = await client.updateAccountCallbacks({
      moCallBackUrl: `${receiver.url}/inbound`,
      drCallBackUrl: `${receiver.url}/receipts`,
    });
    expect(saved).toEqual({
      'mo-callback-url': `${receiver.url}/inbound`,
      'dr-callback-url': `${receiver.url}/receipts`,
      'max-outbound-request': 30,
      'max-inbound-request': 30,
      'max-calls-per-second': 30,
    });
    // The service checked each URL with a GET before saving it.
    expect(receiver.received.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual(
      expect.arrayContaining(['/inbound', '/receipts']),
    );
    await expect(
      client.updateAccountCallbacks({ drCallBackUrl: `${receiver.url}/broken` }),
    ).rejects.toMatchObject({
      response: { status: 400 },
    });
    const cleared = await client.updateAccountCallbacks({ moCallBackUrl: '' });
    expect(cleared['mo-callback-url']).toBe('');
    expect(cleared['dr-callback-url']).toBe(`${receiver.url}/receipts`);
  });

  it('answers settings in XML when asked', async () => {
    const acct = await newAccount({ settings: { 'max-outbound-request': 5 } });
    const res = await fetch(`${stack.url}/account/settings`, {
      method: 'POST',
      headers: {
        authorization: basic(acct.api_key, acct.api_secret),
        accept: 'application/xml',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
    });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>/);
    expect(xml).toContain('<account-settings>');
    expect(xml).toContain('<max-outbound-request>5</max-outbound-request>');
  });

  it('refuses JSON bodies on settings', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/account/settings`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ moCallBackUrl: `${receiver.url}/x` }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ 'error-code': '415' });
  });
});

describe('secrets through @vonage/accounts', () => {
  it('lists, creates, reads and deletes secrets, keeping the last one', async () => {
    const acct = await newAccount();
    const secrets = new Secrets({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
    const list = await secrets.listSecrets(acct.api_key);
    expect(list._embedded.secrets).toHaveLength(1);
    const original = list._embedded.secrets[0]!;
    expect(original.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const created = await secrets.createSecret(acct.api_key, 'NewSecret42');
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created._links?.self.href).toBe(`/accounts/${acct.api_key}/secrets/${created.id}`);
    expect((await secrets.getSecret(acct.api_key, created.id)).id).toBe(created.id);

    // The new secret works for authentication at once.
    const withNew = new Accounts({ apiKey: acct.api_key, apiSecret: 'NewSecret42' }, sdkOptions());
    expect((await withNew.getBalance()).value).toBe(10);

    await secrets.deleteSecret(acct.api_key, original.id);
    const after = new Secrets({ apiKey: acct.api_key, apiSecret: 'NewSecret42' }, sdkOptions());
    await expect(after.deleteSecret(acct.api_key, created.id)).rejects.toMatchObject({
      response: { status: 403 },
    });
    await expect(after.getSecret(acct.api_key, original.id)).rejects.toMatchObject({
      response: { status: 404 },
    });
    // The deleted secret no longer authenticates.
    await expect(secrets.listSecrets(acct.api_key)).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('validates a new secret with invalid_parameters', async () => {
    const acct = await newAccount();
    for (const bad of ['short1A', 'alllowercase1', 'ALLUPPERCASE1', 'NoDigitsHere', 'A1b'.repeat(9)]) {
      const res = await fetch(`${stack.url}/accounts/${acct.api_key}/secrets`, {
        method: 'POST',
        headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
        body: JSON.stringify({ secret: bad }),
      });
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { type: string; invalid_parameters: { name: string }[] };
      expect(body.type).toBe('https://developer.nexmo.com/api-errors/account/secret-management#validation');
      expect(body.invalid_parameters[0]?.name).toBe('secret');
    }
  });

  it('lets primary credentials manage a secondary account, but not the reverse or a stranger', async () => {
    const primary = await newAccount();
    const secondary = await newAccount({ primary_api_key: primary.api_key });
    const stranger = await newAccount();
    const asPrimary = new Secrets({ apiKey: primary.api_key, apiSecret: primary.api_secret }, sdkOptions());
    expect((await asPrimary.listSecrets(secondary.api_key))._embedded.secrets).toHaveLength(1);
    const asSecondary = new Secrets(
      { apiKey: secondary.api_key, apiSecret: secondary.api_secret },
      sdkOptions(),
    );
    await expect(asSecondary.listSecrets(primary.api_key)).rejects.toMatchObject({
      response: { status: 404 },
    });
    const asStranger = new Secrets(
      { apiKey: stranger.api_key, apiSecret: stranger.api_secret },
      sdkOptions(),
    );
    await expect(asStranger.listSecrets(secondary.api_key)).rejects.toMatchObject({
      response: { status: 404 },
    });
  });

  it('refuses secrets calls without Basic credentials with a 401 problem body', async () => {
    const acct = await newAccount();
    const res = await fetch(
      `${stack.url}/accounts/${acct.api_key}/secrets?api_key=${acct.api_key}&api_secret=${acct.api_secret}`,
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      title: 'Unauthorized',
      instance: res.headers.get('x-request-id'),
    });
  });
});
