import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { AuthError, type AuthMode, authenticate, authOf, type CredentialStore } from './auth';
import { problemStyle } from './errors';
import { sign } from './signature';

const KEY = 'abcd1234';
const SECRET = 'Secret123';
const SIG_SECRET = 'signing-secret';
const APP_ID = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
let privateKey: CryptoKey;
let otherPrivateKey: CryptoKey;
let publicPem: string;

const store: CredentialStore = {
  verifySecret: async (k, s) => (k === KEY && s === SECRET ? { apiKey: KEY, primaryApiKey: null } : null),
  signatureSettings: async (k) =>
    k === KEY
      ? { identity: { apiKey: KEY, primaryApiKey: null }, secret: SIG_SECRET, method: 'sha256' }
      : null,
  applicationKey: async (id) =>
    id === APP_ID ? { publicKey: publicPem, apiKey: KEY, primaryApiKey: null } : null,
};

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicPem = await exportSPKI(pair.publicKey);
  otherPrivateKey = (await generateKeyPair('RS256')).privateKey;
});

/** A route that accepts the given modes and answers with who it authenticated, or the failure reason. */
function appWith(modes: AuthMode[]) {
  const app = createApp({
    style: (err, c) => c.json({ reason: err instanceof AuthError ? err.reason : err.kind }, err.status),
  });
  app.all('/r', authenticate({ modes, store: () => store }), (c) => c.json(authOf(c)));
  return app;
}

async function call(
  modes: AuthMode[],
  init: { query?: string; headers?: Record<string, string>; body?: string; method?: string } = {},
) {
  const res = await appWith(modes).request(`/r${init.query ? `?${init.query}` : ''}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: init.headers,
    body: init.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function jwt(claims: Record<string, unknown>, key: CryptoKey = privateKey) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ application_id: APP_ID, jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt(now)
    .sign(key);
}

describe('key and secret', () => {
  const basic = `Basic ${btoa(`${KEY}:${SECRET}`)}`;

  it('accepts query, form, JSON body and Basic', async () => {
    expect((await call(['key-secret'], { query: `api_key=${KEY}&api_secret=${SECRET}` })).body.method).toBe(
      'key-secret',
    );
    const form = await call(['key-secret'], {
      body: `api_key=${KEY}&api_secret=${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.body.apiKey).toBe(KEY);
    const json = await call(['key-secret'], {
      body: JSON.stringify({ api_key: KEY, api_secret: SECRET }),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.body.apiKey).toBe(KEY);
    expect((await call(['key-secret'], { headers: { authorization: basic } })).body.method).toBe('basic');
  });

  it('refuses a wrong secret, a missing key and no credentials', async () => {
    expect(await call(['key-secret'], { query: `api_key=${KEY}&api_secret=nope` })).toEqual({
      status: 401,
      body: { reason: 'invalid-credentials' },
    });
    expect((await call(['key-secret'], { query: `api_secret=${SECRET}` })).body.reason).toBe('missing');
    expect((await call(['key-secret'])).body.reason).toBe('missing');
  });

  it('refuses two schemes in one request', async () => {
    const res = await call(['key-secret'], {
      query: `api_key=${KEY}&api_secret=${SECRET}`,
      headers: { authorization: basic },
    });
    expect(res).toEqual({ status: 401, body: { reason: 'multiple-schemes' } });
  });

  it('refuses parameters where only Basic is allowed', async () => {
    expect((await call(['basic'], { query: `api_key=${KEY}&api_secret=${SECRET}` })).body.reason).toBe(
      'missing',
    );
    expect((await call(['basic'], { headers: { authorization: basic } })).status).toBe(200);
    expect((await call(['basic'], { headers: { authorization: 'Basic !!!' } })).body.reason).toBe(
      'invalid-credentials',
    );
  });
});

describe('signed requests', () => {
  it('accepts a valid signature and refuses a bad one or one with a secret', async () => {
    const params: Record<string, string> = {
      api_key: KEY,
      to: '447700900000',
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const sig = sign(params, SIG_SECRET, 'sha256');
    const ok = await call(['key-secret', 'signature'], {
      query: new URLSearchParams({ ...params, sig }).toString(),
    });
    expect(ok.body.method).toBe('signature');
    const bad = await call(['key-secret', 'signature'], {
      query: new URLSearchParams({ ...params, sig: '0'.repeat(64) }).toString(),
    });
    expect(bad).toEqual({ status: 401, body: { reason: 'invalid-signature' } });
    const both = await call(['key-secret', 'signature'], {
      query: new URLSearchParams({ ...params, sig, api_secret: SECRET }).toString(),
    });
    expect(both.body.reason).toBe('signature-and-secret');
    expect(
      (await call(['key-secret'], { query: new URLSearchParams({ ...params, sig }).toString() })).body.reason,
    ).toBe('scheme-not-allowed');
  });
});

describe('JWT', () => {
  it('accepts a token signed by the application key, as an admin token without sub', async () => {
    const res = await call(['jwt'], {
      headers: { authorization: `Bearer ${await jwt({ exp: Math.floor(Date.now() / 1000) + 60 })}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ apiKey: KEY, applicationId: APP_ID, admin: true, method: 'jwt' });
  });

  it('treats a token with sub as a user token', async () => {
    const res = await call(['jwt'], { headers: { authorization: `Bearer ${await jwt({ sub: 'alice' })}` } });
    expect(res.body).toMatchObject({ admin: false, sub: 'alice' });
  });

  it('refuses expired, unknown-application, wrongly signed and jti-less tokens', async () => {
    const expired = await jwt({ exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${expired}` } })).body.reason).toBe(
      'expired-token',
    );
    const unknown = await jwt({ application_id: '00000000-0000-0000-0000-000000000000' });
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${unknown}` } })).body.reason).toBe(
      'unknown-application',
    );
    const forged = await jwt({}, otherPrivateKey);
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${forged}` } })).body.reason).toBe(
      'invalid-token',
    );
    const noJti = await new SignJWT({ application_id: APP_ID })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .sign(privateKey);
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${noJti}` } })).body.reason).toBe(
      'invalid-token',
    );
    expect((await call(['jwt'], { headers: { authorization: 'Bearer not.a.token' } })).body.reason).toBe(
      'invalid-token',
    );
  });

  it('applies the acl claim to the path', async () => {
    const allowed = await jwt({ acl: { paths: { '/r': {} } } });
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${allowed}` } })).status).toBe(200);
    const denied = await jwt({ acl: { paths: { '/v1/calls/**': {} } } });
    expect((await call(['jwt'], { headers: { authorization: `Bearer ${denied}` } })).body.reason).toBe(
      'forbidden-path',
    );
  });

  it('is refused where only key and secret are allowed', async () => {
    const res = await call(['key-secret'], { headers: { authorization: `Bearer ${await jwt({})}` } });
    expect(res.body.reason).toBe('scheme-not-allowed');
  });
});

describe('error handling', () => {
  it('never leaks a stack trace', async () => {
    const app = createApp({ style: problemStyle() });
    app.get('/boom', () => {
      throw new Error('secret internals at /src/file.ts:12');
    });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('internals');
    expect(JSON.parse(text)).toMatchObject({ title: 'Internal Server Error' });
  });
});
