import { env } from 'cloudflare:workers';
import type { SandboxAccount } from '@comms/core';
import { exportSPKI, generateKeyPair, importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { registryOf } from '../src/accounts';
import { basic, get, newAccount, request, worker } from './helpers';

interface AppBody {
  id: string;
  name: string;
  keys: { public_key: string; private_key?: string };
  capabilities: Record<string, unknown>;
  privacy: { improve_ai: boolean };
  _links: { self: { href: string } };
}

interface Problem {
  type: string;
  title: string;
  detail: string;
  instance: string;
  invalid_parameters?: { name: string; reason: string }[];
}

function as(acct: SandboxAccount) {
  return { authorization: basic(acct.api_key, acct.api_secret) };
}

async function create(acct: SandboxAccount, body: unknown): Promise<AppBody> {
  const res = await request('POST', '/v2/applications', body, as(acct));
  expect(res.status).toBe(201);
  return res.json();
}

async function rsaPublicPem(): Promise<string> {
  const { publicKey } = await generateKeyPair('RS256', { extractable: true });
  return exportSPKI(publicKey);
}

/** A 1024-bit RSA key, which jose will not generate but a client might still send. */
async function weakRsaPublicPem(): Promise<string> {
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 1024,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  };
  const pair = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  return exportSPKI(pair.publicKey);
}

async function ecPublicPem(): Promise<string> {
  const { publicKey } = await generateKeyPair('ES256', { extractable: true });
  return exportSPKI(publicKey);
}

const voice = {
  webhooks: {
    answer_url: { address: 'https://example.com/answer', http_method: 'GET', connect_timeout: 500 },
    event_url: { address: 'https://example.com/event', http_method: 'POST', socket_timeout: 8000 },
  },
  signed_callbacks: true,
  region: 'eu-west',
};

describe('POST /v2/applications', () => {
  it('generates a key pair and shows the private key once', async () => {
    const acct = await newAccount();
    const app = await create(acct, { name: 'Generated', capabilities: { voice } });
    expect(app.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(app.name).toBe('Generated');
    expect(app.keys.private_key).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n?$/,
    );
    expect(app.keys.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(app.privacy).toEqual({ improve_ai: true });
    expect(app._links).toEqual({ self: { href: `/v2/applications/${app.id}` } });
    expect(app.capabilities).toEqual({ voice });

    const res = await get(`/v2/applications/${app.id}`, { headers: as(acct) });
    expect(res.status).toBe(200);
    const shown: AppBody = await res.json();
    expect(shown.keys).toEqual({ public_key: app.keys.public_key });
    expect(shown.capabilities).toEqual({ voice });

    // The private key handed out signs tokens that the stored public key verifies.
    const token = await new SignJWT({ application_id: app.id })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .sign(await importPKCS8(app.keys.private_key ?? '', 'RS256'));
    const { payload } = await jwtVerify(token, await importSPKI(shown.keys.public_key, 'RS256'));
    expect(payload['application_id']).toBe(app.id);
  });

  it('keeps a supplied public key and returns no private key', async () => {
    const acct = await newAccount();
    const pem = await rsaPublicPem();
    const app = await create(acct, {
      name: 'Own key',
      keys: { public_key: pem },
      capabilities: {
        messages: { webhooks: { inbound_url: { address: 'https://example.com/in' } } },
        vbc: {},
      },
      privacy: { improve_ai: true },
    });
    expect(app.keys).toEqual({ public_key: pem });
    expect(app.privacy).toEqual({ improve_ai: true });
    expect(app.capabilities).toEqual({
      messages: { webhooks: { inbound_url: { address: 'https://example.com/in', http_method: 'POST' } } },
      vbc: {},
    });
    const key = await worker.applicationKey(app.id);
    expect(key).toEqual({ publicKey: pem, apiKey: acct.api_key, primaryApiKey: null });
  });

  it('refuses a public key that is not an RSA PEM', async () => {
    const acct = await newAccount();
    for (const publicKey of ['not a key', await weakRsaPublicPem(), await ecPublicPem()]) {
      const res = await request(
        'POST',
        '/v2/applications',
        { name: 'x', keys: { public_key: publicKey } },
        as(acct),
      );
      expect(res.status).toBe(400);
      const body: Problem = await res.json();
      expect(body.type).toBe('https://developer.nexmo.com/api-errors/application#payload-validation');
      expect(body.invalid_parameters?.map((p) => p.name)).toEqual(['keys.public_key']);
    }
    const list = await get('/v2/applications', { headers: as(acct) });
    expect(((await list.json()) as { total_items: number }).total_items).toBe(0);
  });

  it('requires a name and valid webhooks', async () => {
    const acct = await newAccount();
    const res = await request(
      'POST',
      '/v2/applications',
      { capabilities: { voice: { webhooks: { answer_url: { address: 'ftp://x', http_method: 'PUT' } } } } },
      as(acct),
    );
    expect(res.status).toBe(400);
    const body: Problem = await res.json();
    expect(body.title).toBe('Bad Request');
    expect(body.instance).toBeTruthy();
    expect(body.invalid_parameters?.map((p) => p.name).sort()).toEqual([
      'capabilities.voice.webhooks.answer_url.address',
      'capabilities.voice.webhooks.answer_url.http_method',
      'name',
    ]);
    expect(body.invalid_parameters?.find((p) => p.name === 'name')?.reason).toBe('Is required');
  });

  it('answers malformed and non-object JSON with a 400 problem body', async () => {
    const acct = await newAccount();
    for (const raw of ['{"name": ', '[1, 2]', '"text"']) {
      const res = await request('POST', '/v2/applications', raw, as(acct));
      expect(res.status).toBe(400);
      const body: Problem = await res.json();
      expect(body.title).toBe('Bad Request');
      expect(typeof body.detail).toBe('string');
    }
  });

  it('refuses a body that is not JSON with 415', async () => {
    const acct = await newAccount();
    const res = await request('POST', '/v2/applications', 'name=x', {
      ...as(acct),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as Problem).type).toBe(
      'https://developer.nexmo.com/api-errors#content-type-header',
    );
  });
});

describe('GET /v2/applications', () => {
  it('pages with HAL links', async () => {
    const acct = await newAccount();
    const names = ['one', 'two', 'three'];
    for (const name of names) await create(acct, { name });

    const first = await get('/v2/applications?page_size=2', { headers: as(acct) });
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as {
      page_size: number;
      page: number;
      total_items: number;
      total_pages: number;
      _embedded: { applications: AppBody[] };
      _links: Record<string, { href: string }>;
    };
    expect(page1).toMatchObject({ page_size: 2, page: 1, total_items: 3, total_pages: 2 });
    expect(page1._embedded.applications).toHaveLength(2);
    expect(page1._embedded.applications.every((a) => a.keys.private_key === undefined)).toBe(true);
    expect(page1._links).toEqual({
      self: { href: '/v2/applications?page_size=2&page=1' },
      first: { href: '/v2/applications?page_size=2&page=1' },
      last: { href: '/v2/applications?page_size=2&page=2' },
      next: { href: '/v2/applications?page_size=2&page=2' },
    });

    const second = await get(page1._links['next']?.href ?? '', { headers: as(acct) });
    const page2 = (await second.json()) as typeof page1;
    expect(page2._embedded.applications).toHaveLength(1);
    expect(page2._links['prev']).toEqual({ href: '/v2/applications?page_size=2&page=1' });
    expect(page2._links['next']).toBeUndefined();
    const seen = [...page1._embedded.applications, ...page2._embedded.applications].map((a) => a.name);
    expect(seen.sort()).toEqual([...names].sort());
  });

  it('defaults to 10 a page and refuses a page size above 100', async () => {
    const acct = await newAccount();
    const empty = await get('/v2/applications', { headers: as(acct) });
    expect(await empty.json()).toMatchObject({ page_size: 10, page: 1, total_items: 0, total_pages: 0 });
    const res = await get('/v2/applications?page_size=101', { headers: as(acct) });
    expect(res.status).toBe(400);
    const body: Problem = await res.json();
    expect(body.type).toBe('https://developer.nexmo.com/api-errors/application#list-validation');
    expect(body.invalid_parameters?.[0]?.name).toBe('page_size');
  });

  it('lists only the caller’s applications', async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await create(a, { name: 'mine' });
    const res = await get('/v2/applications', { headers: as(b) });
    expect(await res.json()).toMatchObject({ total_items: 0, _embedded: { applications: [] } });
  });
});

describe('GET, PUT, DELETE /v2/applications/:id', () => {
  it('replaces an application and keeps its key unless a new one is given', async () => {
    const acct = await newAccount();
    const app = await create(acct, {
      name: 'Before',
      capabilities: { voice },
      privacy: { improve_ai: true },
    });

    const res = await request(
      'PUT',
      `/v2/applications/${app.id}`,
      {
        name: 'After',
        capabilities: { rtc: { webhooks: { event_url: { address: 'https://example.com/rtc' } } } },
      },
      as(acct),
    );
    expect(res.status).toBe(200);
    const updated: AppBody = await res.json();
    expect(updated).toEqual({
      id: app.id,
      name: 'After',
      keys: { public_key: app.keys.public_key },
      capabilities: {
        rtc: { webhooks: { event_url: { address: 'https://example.com/rtc', http_method: 'POST' } } },
      },
      privacy: { improve_ai: true },
      _links: { self: { href: `/v2/applications/${app.id}` } },
    });

    const pem = await rsaPublicPem();
    const rekeyed = await request(
      'PUT',
      `/v2/applications/${app.id}`,
      { name: 'After', keys: { public_key: pem } },
      as(acct),
    );
    expect(((await rekeyed.json()) as AppBody).keys).toEqual({ public_key: pem });
    expect((await worker.applicationKey(app.id))?.publicKey).toBe(pem);

    const shown = await get(`/v2/applications/${app.id}`, { headers: as(acct) });
    expect(((await shown.json()) as AppBody).name).toBe('After');
  });

  it('validates an update like a create', async () => {
    const acct = await newAccount();
    const app = await create(acct, { name: 'x' });
    const res = await request(
      'PUT',
      `/v2/applications/${app.id}`,
      { name: '', keys: { public_key: 'nope' } },
      as(acct),
    );
    expect(res.status).toBe(400);
    const names = ((await res.json()) as Problem).invalid_parameters?.map((p) => p.name).sort();
    expect(names).toEqual(['keys.public_key', 'name']);
  });

  it('deletes an application and its key lookup', async () => {
    const acct = await newAccount();
    const app = await create(acct, { name: 'Doomed' });
    expect((await worker.applicationKey(app.id))?.publicKey).toBe(app.keys.public_key);
    expect(await registryOf(env).applicationOwner(app.id)).toBe(acct.api_key);

    const res = await request('DELETE', `/v2/applications/${app.id}`, undefined, as(acct));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await worker.applicationKey(app.id)).toBeNull();
    expect(await registryOf(env).applicationOwner(app.id)).toBeNull();
    expect((await get(`/v2/applications/${app.id}`, { headers: as(acct) })).status).toBe(404);
    expect((await request('DELETE', `/v2/applications/${app.id}`, undefined, as(acct))).status).toBe(404);
  });

  it('answers 404 alike for unknown ids and for another account’s application', async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const app = await create(owner, { name: 'Private' });
    const unknown = crypto.randomUUID();
    for (const id of [unknown, app.id]) {
      for (const res of [
        await get(`/v2/applications/${id}`, { headers: as(other) }),
        await request('PUT', `/v2/applications/${id}`, { name: 'Stolen' }, as(other)),
        await request('DELETE', `/v2/applications/${id}`, undefined, as(other)),
      ]) {
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({
          type: 'https://developer.nexmo.com/api-errors#not-found',
          title: 'Not Found',
          detail: `ID '${id}' does not exist, or you do not have access`,
        });
      }
    }
    const still = await get(`/v2/applications/${app.id}`, { headers: as(owner) });
    expect(((await still.json()) as AppBody).name).toBe('Private');
    expect((await worker.applicationKey(app.id))?.apiKey).toBe(owner.api_key);
  });
});

describe('authentication', () => {
  it('accepts Basic only', async () => {
    const acct = await newAccount();
    const none = await get('/v2/applications');
    expect(none.status).toBe(401);
    expect(((await none.json()) as Problem).type).toBe('https://developer.nexmo.com/api-errors#unauthorized');

    const query = await get(`/v2/applications?api_key=${acct.api_key}&api_secret=${acct.api_secret}`);
    expect(query.status).toBe(401);

    const wrong = await request(
      'POST',
      '/v2/applications',
      { name: 'x' },
      { authorization: basic(acct.api_key, 'Wrong0000') },
    );
    expect(wrong.status).toBe(401);

    const bearer = await get('/v2/applications/abc', { headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(bearer.status).toBe(401);
  });
});
