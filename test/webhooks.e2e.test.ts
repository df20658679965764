import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with `pnpm dev`.
import { startStack } from '../scripts/stack.mjs';
import { newAccount, stack, startReceiver, until } from './helpers';
import { freePort } from './ports';

interface Delivery {
  id: string;
  state: 'pending' | 'delivered' | 'failed';
  next_attempt_at: string | null;
  attempts: { status: number | null; latency_ms: number }[];
  payload: Record<string, string>;
}

async function sandbox(path: string, body?: unknown, base = stack.url, token = stack.token) {
  const res = await fetch(`${base}/_sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function deliveryOf(
  apiKey: string,
  id: string,
  base = stack.url,
  token = stack.token,
): Promise<Delivery> {
  const { body } = await sandbox(`/webhooks?api_key=${apiKey}`, undefined, base, token);
  const found = (body.deliveries as Delivery[]).find((d) => d.id === id);
  // It appears once the queue has handed the job over.
  return found ?? { id, state: 'pending', next_attempt_at: null, attempts: [], payload: {} };
}

describe('webhook delivery (through the sandbox test webhook)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let failuresLeft = 0;
  beforeAll(async () => {
    receiver = await startReceiver((req) => {
      if (req.url?.startsWith('/flaky') && failuresLeft > 0) {
        failuresLeft--;
        return 500;
      }
      return req.url?.startsWith('/down') ? 503 : 200;
    });
  });
  afterAll(() => receiver.close());

  it('signs legacy webhooks so that the receiver can verify them with the signature secret', async () => {
    const acct = await newAccount({ sign_webhooks: true });
    const sent = await sandbox('/webhooks', {
      api_key: acct.api_key,
      url: `${receiver.url}/signed`,
      signing: 'legacy',
    });
    expect(sent.status).toBe(202);
    const got = await until(
      async () => receiver.received.find((r) => r.url === '/signed'),
      (r) => r !== undefined,
    );
    const fields = JSON.parse(got!.body) as Record<string, string>;
    expect(fields).toMatchObject({ type: 'test', api_key: acct.api_key });
    expect(Math.abs(Number(fields.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(fields.nonce).toBeTruthy();
    // The documented md5hash algorithm, written independently of the server.
    const text = Object.keys(fields)
      .filter((k) => k !== 'sig')
      .sort()
      .map((k) => `&${k}=${String(fields[k]).replace(/[&=]/g, '_')}`)
      .join('');
    expect(fields.sig).toBe(
      createHash('md5')
        .update(text + acct.signature_secret)
        .digest('hex'),
    );
  });

  it('does not sign legacy webhooks for accounts that do not sign', async () => {
    const acct = await newAccount();
    await sandbox('/webhooks', { api_key: acct.api_key, url: `${receiver.url}/unsigned`, signing: 'legacy' });
    const got = await until(
      async () => receiver.received.find((r) => r.url === '/unsigned'),
      (r) => r !== undefined,
    );
    expect(JSON.parse(got!.body)).not.toHaveProperty('sig');
  });

  it('signs JWT webhooks with HS256 over the signature secret and a payload hash', async () => {
    const acct = await newAccount({ signature_method: 'sha256' });
    await sandbox('/webhooks', { api_key: acct.api_key, url: `${receiver.url}/jwt`, signing: 'jwt' });
    const got = await until(
      async () => receiver.received.find((r) => r.url === '/jwt'),
      (r) => r !== undefined,
    );
    const token = String(got!.headers.authorization).replace(/^Bearer /, '');
    const { payload } = await jwtVerify(token, new TextEncoder().encode(acct.signature_secret));
    expect(payload.payload_hash).toBe(createHash('sha256').update(got!.body).digest('hex'));
    expect(payload.api_key).toBe(acct.api_key);
    const forged = createHmac('sha256', 'wrong').update('x').digest('hex');
    await expect(jwtVerify(token, new TextEncoder().encode(forged))).rejects.toThrow();
  });

  it('keeps retrying a receiver that answers 500 five times, and delivers on the sixth attempt', async () => {
    const acct = await newAccount();
    failuresLeft = 5;
    const { body } = await sandbox('/webhooks', { api_key: acct.api_key, url: `${receiver.url}/flaky` });
    const id = body.id as string;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const d = await until(
        () => deliveryOf(acct.api_key, id),
        (d) => d.attempts.length === attempt,
      );
      expect(d.state).toBe('pending');
      expect(d.attempts[attempt - 1]?.status).toBe(500);
      // The backoff doubles from 5 s; the sandbox fast-forwards it instead of waiting.
      const wait = Date.parse(d.next_attempt_at!) - Date.now();
      expect(wait).toBeGreaterThan(5000 * 2 ** (attempt - 1) - 3000);
      expect(wait).toBeLessThanOrEqual(5000 * 2 ** (attempt - 1));
      expect((await sandbox('/webhooks/retry', { api_key: acct.api_key })).body.retried).toBe(1);
    }
    const done = await until(
      () => deliveryOf(acct.api_key, id),
      (d) => d.state === 'delivered',
    );
    expect(done.state).toBe('delivered');
    expect(done.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 200]);
  });

  it('shows a receiver that stays down as pending with the next attempt scheduled', async () => {
    const acct = await newAccount();
    const { body } = await sandbox('/webhooks', { api_key: acct.api_key, url: `${receiver.url}/down` });
    const d = await until(
      () => deliveryOf(acct.api_key, body.id as string),
      (d) => d.attempts.length === 1,
    );
    expect(d).toMatchObject({ state: 'pending', attempts: [{ status: 503 }] });
    expect(Date.parse(d.next_attempt_at!)).toBeGreaterThan(Date.now());
    expect(d.attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('validates sandbox webhook requests', async () => {
    expect((await sandbox('/webhooks', { api_key: 'x', url: 'not a url' })).status).toBe(400);
    expect((await sandbox('/webhooks', { api_key: 'nobody00', url: `${receiver.url}/x` })).status).toBe(404);
    expect((await sandbox('/webhooks?kind=bogus&api_key=x')).status).toBe(400);
  });
});

describe('webhook retries across a restart', () => {
  it('loses nothing when the stack stops in the middle of retrying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'comms-restart-'));
    const port = await freePort();
    let up = false;
    const receiver = await startReceiver(() => (up ? 200 : 503));
    const options = { port, token: 'restart-token', stateDir: join(dir, 'state') };
    let second: { url: string; stop(): Promise<void> } | undefined;
    const first = await startStack(options);
    try {
      const res = await fetch(`${first.url}/_sandbox/accounts`, {
        method: 'POST',
        headers: { authorization: 'Bearer restart-token' },
      });
      const acct = (await res.json()) as { api_key: string };
      const { body } = await sandbox(
        '/webhooks',
        { api_key: acct.api_key, url: `${receiver.url}/later` },
        first.url,
        'restart-token',
      );
      const id = body.id as string;
      await until(
        () => deliveryOf(acct.api_key, id, first.url, 'restart-token'),
        (d) => d.attempts.length === 1,
      );
      await first.stop();
      up = true;
      second = await startStack(options);
      // The retry was persisted with the log; it comes due after the 5 s backoff, no fast-forward.
      const done = await until(
        () => deliveryOf(acct.api_key, id, second!.url, 'restart-token'),
        (d) => d.state === 'delivered',
        30_000,
      );
      expect(done.state).toBe('delivered');
      expect(done.attempts.map((a) => a.status)).toEqual([503, 200]);
    } finally {
      await first.stop();
      await second?.stop();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
