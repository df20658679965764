import { Applications } from '@vonage/applications';
import { tokenGenerate } from '@vonage/jwt';
import { importPKCS8, importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { basic, newAccount, sdkOptions, stack } from './helpers';

describe('applications through @vonage/applications', () => {
  it('creates with a generated key pair, reads, lists, updates and deletes', async () => {
    const acct = await newAccount();
    const apps = new Applications({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
    const created = await apps.createApplication({
      name: 'My voice app',
      capabilities: {
        voice: {
          webhooks: {
            answerUrl: { address: 'https://example.com/answer', httpMethod: 'GET' },
            eventUrl: { address: 'https://example.com/event', httpMethod: 'POST' },
          },
        },
      },
    } as never);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.name).toBe('My voice app');
    const privateKey = (created.keys as { privateKey: string }).privateKey;
    expect(privateKey).toContain('BEGIN PRIVATE KEY');

    // A JWT made by the official JWT package with the returned private key verifies with the stored public key.
    const fetched = await apps.getApplication(created.id as string);
    expect((fetched.keys as { privateKey?: string }).privateKey).toBeUndefined();
    const publicKey = await importSPKI((fetched.keys as { publicKey: string }).publicKey, 'RS256');
    const token = tokenGenerate(created.id as string, privateKey);
    const { payload } = await jwtVerify(token, publicKey);
    expect(payload.application_id).toBe(created.id);
    await importPKCS8(privateKey, 'RS256');
    expect(fetched.capabilities?.voice?.webhooks?.answerUrl?.address).toBe('https://example.com/answer');

    const page = await apps.listApplications({});
    expect(page.totalItems).toBe(1);
    expect(page._embedded?.applications?.[0]?.id).toBe(created.id);

    const updated = await apps.updateApplication({ ...fetched, name: 'Renamed' } as never);
    expect(updated.name).toBe('Renamed');
    expect((await apps.getApplication(created.id as string)).name).toBe('Renamed');

    await apps.deleteApplication(created.id as string);
    await expect(apps.getApplication(created.id as string)).rejects.toMatchObject({
      response: { status: 404 },
    });
  });

  it('keeps applications private to their account', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const ownerApps = new Applications({ apiKey: owner.api_key, apiSecret: owner.api_secret }, sdkOptions());
    const created = await ownerApps.createApplication({ name: 'Private' } as never);
    const otherApps = new Applications({ apiKey: other.api_key, apiSecret: other.api_secret }, sdkOptions());
    await expect(otherApps.getApplication(created.id as string)).rejects.toMatchObject({
      response: { status: 404 },
    });
    expect((await otherApps.listApplications({})).totalItems).toBe(0);
  });

  it('refuses a missing name and bad credentials', async () => {
    const acct = await newAccount();
    const res = await fetch(`${stack.url}/v2/applications`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities: {} }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { invalid_parameters: { name: string }[] };
    expect(body.invalid_parameters.map((p) => p.name)).toContain('name');
    const bad = new Applications({ apiKey: acct.api_key, apiSecret: 'Wrong1234' }, sdkOptions());
    await expect(bad.listApplications({})).rejects.toMatchObject({ response: { status: 401 } });
  });

  it('serves the demo application created at start-up', async () => {
    const apps = new Applications(
      { apiKey: stack.demo.api_key, apiSecret: stack.demo.api_secret },
      sdkOptions(),
    );
    const demo = await apps.getApplication(stack.demo.application_id);
    expect(demo.capabilities?.voice).toBeDefined();
  });
});
