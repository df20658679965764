import { env } from 'cloudflare:test';
import { authenticate, authOf, createApp, problemStyle } from '@comms/core';
import { importPKCS8, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { credentialStore } from '../src/accounts';
import { basic, newAccount, worker } from './helpers';

/** A JWT-only route, as voice and conversations declare them, over this service's real store. */
const app = createApp<Env>({ style: problemStyle() });
app.get('/v1/calls', authenticate({ modes: ['jwt'], store: (c) => credentialStore(c.env) }), (c) =>
  c.json(authOf(c)),
);

async function createApplication(key: string, secret: string) {
  const res = await worker.fetch(
    new Request('https://api.example.test/v2/applications', {
      method: 'POST',
      headers: { authorization: basic(key, secret), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'jwt test' }),
    }),
  );
  return (await res.json()) as { id: string; keys: { private_key: string } };
}

async function token(appId: string, pem: string, claims: Record<string, unknown> = {}) {
  const key = await importPKCS8(pem, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ application_id: appId, jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime((claims.exp as number | undefined) ?? now + 900)
    .sign(key);
}

function call(jwt: string) {
  return app.request('/v1/calls', { headers: { authorization: `Bearer ${jwt}` } }, env);
}

describe('JWT authentication against applications stored by this service', () => {
  it('accepts a token signed with the application private key', async () => {
    const acct = await newAccount();
    const created = await createApplication(acct.api_key, acct.api_secret);
    const res = await call(await token(created.id, created.keys.private_key));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ apiKey: acct.api_key, applicationId: created.id, admin: true });
  });

  it('answers an expired token and an unknown application with the 401 problem body', async () => {
    const acct = await newAccount();
    const created = await createApplication(acct.api_key, acct.api_secret);
    const expired = await call(
      await token(created.id, created.keys.private_key, { exp: Math.floor(Date.now() / 1000) - 5 }),
    );
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({
      type: 'https://developer.nexmo.com/api-errors#unauthorized',
      title: 'Unauthorized',
      detail: 'The token has expired',
    });
    const unknown = await call(await token(crypto.randomUUID(), created.keys.private_key));
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/does not exist/);
  });

  it('refuses tokens of a deleted application', async () => {
    const acct = await newAccount();
    const created = await createApplication(acct.api_key, acct.api_secret);
    const jwt = await token(created.id, created.keys.private_key);
    expect((await call(jwt)).status).toBe(200);
    const del = await worker.fetch(
      new Request(`https://api.example.test/v2/applications/${created.id}`, {
        method: 'DELETE',
        headers: { authorization: basic(acct.api_key, acct.api_secret) },
      }),
    );
    expect(del.status).toBe(204);
    expect((await call(jwt)).status).toBe(401);
  });
});
