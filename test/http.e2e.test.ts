import { AlgorithmTypes, Auth } from '@vonage/auth';
import { describe, expect, it } from 'vitest';
import { basic, newAccount, stack } from './helpers';

/** Parameters signed by the official SDK's own signing code. */
function signed(auth: Auth, params: Record<string, string>): Promise<Record<string, string>> {
  return auth.createSignatureHash(params as never) as unknown as Promise<Record<string, string>>;
}

const balanceUrl = (query: string) => `${stack.url}/account/get-balance?${query}`;

describe('legacy parameters: query, form and JSON bodies', () => {
  it('takes credentials from the query string', async () => {
    const acct = await newAccount({ balance: 7 });
    const res = await fetch(balanceUrl(`api_key=${acct.api_key}&api_secret=${acct.api_secret}`));
    expect(await res.json()).toEqual({ value: 7, autoReload: false });
  });

  it('takes credentials and fields from a form body or a JSON body alike', async () => {
    const acct = await newAccount({ balance: 1, auto_reload: true });
    const form = await fetch(`${stack.url}/account/top-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: acct.api_key, api_secret: acct.api_secret, trx: 'T1' }).toString(),
    });
    expect(form.status).toBe(200);
    const json = await fetch(`${stack.url}/account/top-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: acct.api_key, api_secret: acct.api_secret, trx: 'T2' }),
    });
    expect(json.status).toBe(200);
    const res = await fetch(balanceUrl(`api_key=${acct.api_key}&api_secret=${acct.api_secret}`));
    expect(await res.json()).toEqual({ value: 3, autoReload: true });
  });

  it('answers a missing trx with the legacy error body, in XML when asked', async () => {
    const acct = await newAccount({ auto_reload: true });
    const res = await fetch(`${stack.url}/account/top-up`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), accept: 'application/xml' },
    });
    expect(res.status).toBe(400);
    const xml = await res.text();
    expect(xml).toContain('<error-code>400</error-code>');
    expect(xml).toContain('<error-code-label>missing parameter: trx</error-code-label>');
  });
});

describe('authentication refusals', () => {
  it('a wrong secret and a missing key get the legacy 401 body', async () => {
    const acct = await newAccount();
    for (const query of [
      `api_key=${acct.api_key}&api_secret=Wrong1234`,
      `api_secret=${acct.api_secret}`,
      '',
    ]) {
      const res = await fetch(balanceUrl(query));
      expect(res.status, query).toBe(401);
      expect(await res.json()).toEqual({ 'error-code': '401', 'error-code-label': 'authentication failed' });
    }
  });

  it('an XML 401 on get-balance uses the accountBalance root', async () => {
    const res = await fetch(balanceUrl('api_key=nobody12&api_secret=Nope12345'), {
      headers: { accept: 'application/xml' },
    });
    expect(res.status).toBe(401);
    const xml = await res.text();
    expect(xml).toContain('<accountBalance>');
    expect(xml).toContain('<error-code-label>authentication failed</error-code-label>');
  });

  it('Basic plus a secret parameter is refused as two schemes', async () => {
    const acct = await newAccount();
    const res = await fetch(balanceUrl(`api_key=${acct.api_key}&api_secret=${acct.api_secret}`), {
      headers: { authorization: basic(acct.api_key, acct.api_secret) },
    });
    expect(res.status).toBe(401);
  });

  it('a bearer token is refused where key and secret are required', async () => {
    const res = await fetch(`${stack.url}/account/get-balance`, {
      headers: { authorization: 'Bearer abc.def.ghi' },
    });
    expect(res.status).toBe(401);
  });
});

describe('signed requests', () => {
  for (const [method, algorithm] of [
    ['md5hash', AlgorithmTypes.md5hash],
    ['md5', AlgorithmTypes.md5hmac],
    ['sha1', AlgorithmTypes.sha1hmac],
    ['sha256', AlgorithmTypes.sha256hmac],
    ['sha512', AlgorithmTypes.sha512hmac],
  ] as const) {
    it(`accepts a request signed by the official SDK with ${method} and refuses a tampered one`, async () => {
      const acct = await newAccount({ signature_method: method, balance: 4 });
      const auth = new Auth({
        apiKey: acct.api_key,
        signature: { secret: acct.signature_secret, algorithm },
      });
      const params = await signed(auth, { note: 'a=b&c' });
      const ok = await fetch(balanceUrl(new URLSearchParams(params).toString()));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ value: 4, autoReload: false });

      const tampered = await fetch(
        balanceUrl(new URLSearchParams({ ...params, note: 'changed' }).toString()),
      );
      expect(tampered.status).toBe(401);
      expect(await tampered.json()).toEqual({
        'error-code': '401',
        'error-code-label': 'authentication failed',
      });
    });
  }

  it('refuses a stale timestamp and a signature with a secret', async () => {
    const acct = await newAccount();
    const auth = new Auth({
      apiKey: acct.api_key,
      signature: { secret: acct.signature_secret, algorithm: AlgorithmTypes.md5hash },
    });
    const stale = await signed(auth, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) });
    expect((await fetch(balanceUrl(new URLSearchParams(stale).toString()))).status).toBe(401);
    const fresh = await signed(auth, {});
    const both = await fetch(
      balanceUrl(new URLSearchParams({ ...fresh, api_secret: acct.api_secret }).toString()),
    );
    expect(both.status).toBe(401);
  });
});

describe('the gateway', () => {
  it('puts a request id on every response, errors included', async () => {
    for (const path of ['/account/get-balance', '/nowhere', '/sms/json']) {
      const res = await fetch(`${stack.url}${path}`);
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers the 404 problem body for a family this deployment does not serve', async () => {
    const res = await fetch(`${stack.url}/v3/media`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toMatchObject({
      title: 'Not Found',
      detail: 'The media API is not available on this deployment',
    });
    expect(body.instance).toBe(res.headers.get('x-request-id'));
  });

  it('refuses the sandbox API without its token', async () => {
    const none = await fetch(`${stack.url}/_sandbox/accounts`, { method: 'POST' });
    expect(none.status).toBe(401);
    const wrong = await fetch(`${stack.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
  });

  it('validates sandbox account options', async () => {
    const res = await fetch(`${stack.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ balance: -5 }),
    });
    expect(res.status).toBe(400);
  });
});
