import { describe, expect, it } from 'vitest';
import { basic, get, newAccount, post } from './helpers';

describe('GET /account/get-balance', () => {
  it('answers the balance in JSON with query credentials', async () => {
    const acct = await newAccount({ balance: 12.5 });
    const res = await get(`/account/get-balance?api_key=${acct.api_key}&api_secret=${acct.api_secret}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: 12.5, autoReload: false });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers XML when asked', async () => {
    const acct = await newAccount({ balance: 3.25 });
    const res = await get('/account/get-balance', {
      headers: { authorization: basic(acct.api_key, acct.api_secret), accept: 'application/xml' },
    });
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const text = await res.text();
    expect(text).toContain('<accountBalance>');
    expect(text).toContain('<value>3.25000000</value>');
    expect(text).toContain('<autoReload>false</autoReload>');
  });

  it('refuses a wrong secret with the legacy 401 body', async () => {
    const acct = await newAccount();
    const res = await get(`/account/get-balance?api_key=${acct.api_key}&api_secret=Wrong0000`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ 'error-code': '401', 'error-code-label': 'authentication failed' });
  });

  it('refuses a request with no credentials', async () => {
    const res = await get('/account/get-balance');
    expect(res.status).toBe(401);
  });

  it('refuses two schemes at once', async () => {
    const acct = await newAccount();
    const res = await get(`/account/get-balance?api_key=${acct.api_key}&api_secret=${acct.api_secret}`, {
      headers: { authorization: basic(acct.api_key, acct.api_secret) },
    });
    expect(res.status).toBe(401);
  });
});

describe('POST /account/top-up', () => {
  it('refuses accounts without auto-reload', async () => {
    const acct = await newAccount();
    const res = await post('/account/top-up', {
      api_key: acct.api_key,
      api_secret: acct.api_secret,
      trx: 'abc',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ 'error-code': '401', 'error-code-label': 'not auto-reload enabled' });
  });

  it('adds the auto-reload amount', async () => {
    const acct = await newAccount({ balance: 5, auto_reload: true });
    const res = await post('/account/top-up', {
      api_key: acct.api_key,
      api_secret: acct.api_secret,
      trx: 'abc',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ 'error-code': '200', 'error-code-label': 'success' });
    const bal = await get(`/account/get-balance?api_key=${acct.api_key}&api_secret=${acct.api_secret}`);
    expect(await bal.json()).toEqual({ value: 10, autoReload: true });
  });
});
