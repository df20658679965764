import { sign } from '@comms/core';
import { jwtVerify } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountKey, consume, deadLetters, job, onlyDelivery, receiver, worker } from './helpers';

afterEach(async () => {
  // Wipe the logs, so that no retry armed here fires during a later test.
  await worker.reset();
  vi.restoreAllMocks();
});

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('encoding', () => {
  it('POSTs a JSON body exactly', async () => {
    const received = receiver();
    const key = accountKey('plain');
    const body = { msisdn: '447700900000', price: 0.0333, nested: { a: [1, 'b'] }, none: null };
    const result = await consume(job({ accountKey: key, body }));
    expect(result.explicitAcks).toHaveLength(1);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.url.toString()).toBe('https://receiver.test/hook');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual(body);
    expect(request!.headers.get('authorization')).toBeNull();
  });

  it('POSTs a form body', async () => {
    const received = receiver();
    await consume(
      job({ accountKey: accountKey('plain'), encoding: 'form', body: { text: 'a&b=c d', n: 5 } }),
    );
    expect(received[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(received[0]!.body).toBe('text=a%26b%3Dc+d&n=5');
  });

  it('GETs with the fields in the query string, keeping the URL own parameters', async () => {
    const received = receiver();
    await consume(
      job({
        accountKey: accountKey('plain'),
        url: 'https://receiver.test/answer?app=1',
        method: 'GET',
        encoding: 'query',
        body: { from: '447700900001', uuid: 'u-1' },
      }),
    );
    const [request] = received;
    expect(request!.method).toBe('GET');
    expect(request!.body).toBe('');
    expect(request!.url.search).toBe('?app=1&from=447700900001&uuid=u-1');
  });

  it('records exactly what was sent', async () => {
    const received = receiver();
    const key = accountKey('plain');
    await consume(job({ accountKey: key, encoding: 'form', body: { a: '1' } }));
    const delivery = await onlyDelivery(key);
    expect(delivery).toMatchObject({
      state: 'delivered',
      kind: 'sms-receipt',
      url: 'https://receiver.test/hook',
      method: 'POST',
      payload: { a: '1' },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      next_attempt_at: null,
    });
    expect(received).toHaveLength(1);
  });
});

describe('legacy signing', () => {
  it('adds timestamp, nonce and a sig that verifies, when the account signs webhooks', async () => {
    const received = receiver();
    const key = accountKey('signed', 'md5hash');
    const before = Math.floor(Date.now() / 1000);
    await consume(
      job({ accountKey: key, encoding: 'form', signing: 'legacy', body: { msisdn: '447700900000', n: 1 } }),
    );
    const fields = Object.fromEntries(new URLSearchParams(received[0]!.body));
    expect(Object.keys(fields).sort()).toEqual(['msisdn', 'n', 'nonce', 'sig', 'timestamp']);
    expect(Number(fields['timestamp'])).toBeGreaterThanOrEqual(before);
    expect(fields['sig']).toBe(sign(fields, `secret-of-${key}`, 'md5hash'));
    expect(fields['sig']).not.toBe(sign({ ...fields, n: '2' }, `secret-of-${key}`, 'md5hash'));
    expect((await onlyDelivery(key)).payload).toMatchObject({ sig: fields['sig'], nonce: fields['nonce'] });
  });

  it('signs a JSON body over its fields as strings', async () => {
    const received = receiver();
    const key = accountKey('signed', 'sha512');
    await consume(job({ accountKey: key, signing: 'legacy', body: { to: '447700900000', price: 0.05 } }));
    const fields = JSON.parse(received[0]!.body) as Record<string, string | number>;
    expect(fields['price']).toBe(0.05);
    const asStrings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
    expect(fields['sig']).toBe(sign(asStrings, `secret-of-${key}`, 'sha512'));
  });

  it('leaves the fields alone when the account does not sign webhooks, or does not exist', async () => {
    const received = receiver();
    await consume(job({ accountKey: accountKey('plain'), signing: 'legacy', body: { a: '1' } }));
    await consume(job({ accountKey: accountKey('ghost'), signing: 'legacy', body: { a: '1' } }));
    expect(received.map((r) => JSON.parse(r.body))).toEqual([{ a: '1' }, { a: '1' }]);
  });
});

describe('JWT signing', () => {
  it('sends an HS256 bearer token with the claims and the hash of the exact body', async () => {
    const received = receiver();
    const key = accountKey('plain');
    await consume(
      job({
        accountKey: key,
        kind: 'voice-event',
        signing: 'jwt',
        applicationId: 'app-123',
        body: { status: 'answered', uuid: 'c-1' },
      }),
    );
    const [request] = received;
    const token = request!.headers.get('authorization')!.replace(/^Bearer /, '');
    const { payload, protectedHeader } = await jwtVerify(
      token,
      new TextEncoder().encode(`secret-of-${key}`),
      {
        issuer: 'Vonage',
      },
    );
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ api_key: key, application_id: 'app-123' });
    expect(payload['payload_hash']).toBe(await sha256Hex(request!.body));
    expect(typeof payload.jti).toBe('string');
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
    await expect(jwtVerify(token, new TextEncoder().encode('another secret'))).rejects.toThrow();
  });

  it('hashes the empty body of a GET and leaves out application_id without one', async () => {
    const received = receiver();
    const key = accountKey('plain');
    await consume(
      job({ accountKey: key, method: 'GET', encoding: 'query', signing: 'jwt', body: { a: '1' } }),
    );
    const token = received[0]!.headers.get('authorization')!.slice('Bearer '.length);
    const { payload } = await jwtVerify(token, new TextEncoder().encode(`secret-of-${key}`));
    expect(payload['payload_hash']).toBe(await sha256Hex(''));
    expect(payload).not.toHaveProperty('application_id');
  });

  it('fails at once, without calling the receiver, when the account has no secret', async () => {
    const received = receiver();
    const key = accountKey('ghost');
    const ghost = job({ accountKey: key, signing: 'jwt' });
    await consume(ghost);
    expect(received).toHaveLength(0);
    const delivery = await onlyDelivery(key);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toEqual([
      { at: expect.any(String), status: null, error: expect.stringContaining('cannot sign'), latency_ms: 0 },
    ]);
    await expect
      .poll(async () => (await deadLetters()).map((j) => j.id), { timeout: 10_000 })
      .toContain(ghost.id);
  });
});

describe('the consumer', () => {
  it('skips a job it has already delivered (the same id again)', async () => {
    const received = receiver();
    const key = accountKey('plain');
    const once = job({ accountKey: key });
    await consume(once);
    const again = await consume(once);
    expect(again.explicitAcks).toHaveLength(1);
    expect(received).toHaveLength(1);
    expect((await onlyDelivery(key)).attempts).toHaveLength(1);
  });

  it('acks a malformed message and parks it in the dead-letter queue', async () => {
    const result = await consume({ id: 'broken-1' } as never);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);
    await expect
      .poll(async () => (await deadLetters()).map((j) => j.id), { timeout: 10_000 })
      .toContain('broken-1');
  });

  it('logs a connection failure as an attempt with an error and no status', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Network connection lost.'));
    const key = accountKey('plain');
    await consume(job({ accountKey: key }));
    const delivery = await onlyDelivery(key);
    expect(delivery.state).toBe('pending');
    expect(delivery.attempts).toEqual([
      {
        at: expect.any(String),
        status: null,
        error: 'Network connection lost.',
        latency_ms: expect.any(Number),
      },
    ]);
  });
});
