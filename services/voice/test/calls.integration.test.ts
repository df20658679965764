import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_SPACING_MS } from '../src/durable/call-leg';
import { account, advance, api, handset, inspect, ledger, legStub, webhooksOf, worker } from './helpers';

const BASE = {
  from: { type: 'phone', number: '447700900999' },
  event_url: ['https://customer.test/event'],
};

beforeEach(() => {
  // Years ahead of the real clock, so that the runtime never fires an alarm on its own: the tests do.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.UTC(2036, 0, 1, 12));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a call leg driven by its alarm', () => {
  it('places, rings, answers, talks, completes, and is charged once', async () => {
    const apiKey = account();
    const created = await api(apiKey, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900011' }],
      ncco: [{ action: 'talk', text: 'Integration hello' }],
    });
    expect(created.status).toBe(201);
    const uuid = String(created.body['uuid']);
    expect((await api(apiKey, 'GET', `/v1/calls/${uuid}`)).body).toMatchObject({ status: 'started' });

    await advance(1000, uuid);
    expect((await inspect(uuid))?.call['status']).toBe('ringing');
    await advance(2000, uuid);
    expect((await inspect(uuid))?.call['status']).toBe('answered');
    await advance(5000, uuid);
    expect((await inspect(uuid))?.history.map((h) => h.status)).toEqual([
      'started',
      'ringing',
      'answered',
      'completed',
    ]);
    // The events spaced out are still in the outbox: later alarms send them.
    for (let i = 0; i < 4; i++) await advance(EVENT_SPACING_MS, uuid);

    const jobs = await webhooksOf(uuid, (j) => j.length >= 4);
    expect(jobs.map((j) => j.body['status'])).toEqual(['started', 'ringing', 'answered', 'completed']);
    expect(jobs[0]).toMatchObject({
      kind: 'voice-event',
      url: 'https://customer.test/event',
      method: 'POST',
      signing: 'jwt',
      applicationId: `app-${apiKey}`,
      accountKey: apiKey,
    });
    const charges = await ledger(apiKey);
    expect(charges).toEqual([
      expect.objectContaining({ product: 'VOICE-CALL', id: uuid, amount: expect.any(Number) }),
    ]);
    expect(charges[0]!.amount).toBeGreaterThan(0);
    expect((await handset('447700900011')).map((m) => m.text)).toEqual(['Integration hello']);

    const list = await api(apiKey, 'GET', '/v1/calls?status=completed');
    expect(list.body).toMatchObject({ count: 1, page_size: 10, record_index: 0 });
  });

  it('keeps calls to their account', async () => {
    const owner = account();
    const created = await api(owner, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900402' }],
      ncco: [{ action: 'talk', text: 'x' }],
    });
    const uuid = String(created.body['uuid']);
    const other = account();
    expect((await api(other, 'GET', `/v1/calls/${uuid}`)).status).toBe(404);
    expect((await api(other, 'PUT', `/v1/calls/${uuid}`, { action: 'hangup' })).status).toBe(404);
    expect((await api(other, 'GET', '/v1/calls')).body).toMatchObject({ count: 0 });
    expect((await api(owner, 'PUT', `/v1/calls/${uuid}`, { action: 'hangup' })).status).toBe(204);
    expect((await api(owner, 'GET', `/v1/calls/${uuid}`)).body).toMatchObject({ status: 'cancelled' });
    expect((await api(owner, 'GET', '/v1/calls/not-a-uuid')).status).toBe(404);
    const unauthenticated = await worker.fetch(new Request('https://api.example.test/v1/calls'));
    expect(unauthenticated.status).toBe(401);
  });

  it('connect: places a leg in the same conversation, and goes on when it ends', async () => {
    const apiKey = account();
    const created = await api(apiKey, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900012' }],
      ncco: [
        {
          action: 'connect',
          endpoint: [{ type: 'phone', number: '447700900402' }],
          eventUrl: ['https://customer.test/leg'],
        },
        { action: 'talk', text: 'The other side hung up' },
      ],
    });
    const parent = String(created.body['uuid']);
    await advance(3000, parent);
    const child = (await inspect(parent))!.children[0]!;
    expect(child).toMatch(/^[0-9a-f-]{36}$/);
    const childCall = (await inspect(child))!.call;
    expect(childCall).toMatchObject({
      conversation_uuid: created.body['conversation_uuid'],
      to: { type: 'phone', number: '447700900402' },
      from: { type: 'phone', number: '447700900999' },
    });

    expect(await worker.control(child, { action: 'answer' })).toEqual({
      ok: true,
      status: 'answered',
      consumed: true,
    });
    expect(await worker.control(child, { action: 'hangup' })).toMatchObject({
      ok: true,
      status: 'completed',
    });
    expect((await inspect(parent))!.children).toEqual([]);
    await advance(5000, parent);
    expect((await inspect(parent))!.call['status']).toBe('completed');
    expect((await handset('447700900012')).map((m) => m.text)).toContain('The other side hung up');
    const ids = (await ledger(apiKey)).map((c) => c.id).sort();
    expect(ids).toEqual([child, parent].sort());
  });

  it('connect: a parent that ends hangs up the leg it connected', async () => {
    const apiKey = account();
    const created = await api(apiKey, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900013' }],
      ncco: [{ action: 'connect', endpoint: [{ type: 'sip', uri: 'sip:alice@example.com' }] }],
    });
    const parent = String(created.body['uuid']);
    await advance(3000, parent);
    const child = (await inspect(parent))!.children[0]!;
    expect((await api(apiKey, 'PUT', `/v1/calls/${parent}`, { action: 'hangup' })).status).toBe(204);
    expect((await inspect(child))!.call['status']).toBe('cancelled');
  });

  it('asks the answer URL for the NCCO through the worker, and ends the call on an invalid one', async () => {
    const asked: Request[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.startsWith('https://customer.test/')) return realFetch(input, init);
      asked.push(request);
      const ncco = request.url.includes('/bad')
        ? [{ action: 'talk' }]
        : [{ action: 'talk', text: 'From the answer URL' }];
      return Response.json(ncco);
    });
    const apiKey = account();
    const [good, bad] = await Promise.all(
      ['answer', 'bad'].map(async (path, i) => {
        const created = await api(apiKey, 'POST', '/v1/calls', {
          ...BASE,
          to: [{ type: 'phone', number: `44770090002${i}` }],
          answer_url: [`https://customer.test/${path}`],
        });
        return String(created.body['uuid']);
      }),
    );
    await advance(3000, good!, bad!);
    // The answer made the leg ask: its next alarm fetches, through the worker.
    await advance(0, good!, bad!);
    expect(asked.map((r) => new URL(r.url).searchParams.get('uuid')).sort()).toEqual([good, bad].sort());
    expect(asked[0]!.headers.get('authorization')).toMatch(/^Bearer ey/);
    expect((await inspect(bad!))!.call['status']).toBe('completed');
    await advance(2000, good!);
    expect((await inspect(good!))!.call['status']).toBe('completed');
    expect((await handset('447700900020')).map((m) => m.text)).toEqual(['From the answer URL']);
    vi.restoreAllMocks();
  });

  it('redacts the numbers of a call for its account only', async () => {
    const apiKey = account();
    const created = await api(apiKey, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900015' }],
      ncco: [{ action: 'talk', text: 'x' }],
    });
    const uuid = String(created.body['uuid']);
    const redactor = worker as unknown as { redactTransaction(k: string, id: string): Promise<boolean> };
    expect(await redactor.redactTransaction(account(), uuid)).toBe(false);
    expect(await redactor.redactTransaction(apiKey, 'not-a-call')).toBe(false);
    expect(await redactor.redactTransaction(apiKey, uuid)).toBe(true);
    const redacted = { type: 'phone', number: '**********' };
    expect((await api(apiKey, 'GET', `/v1/calls/${uuid}`)).body).toMatchObject({
      to: redacted,
      from: redacted,
    });
    expect((await api(apiKey, 'GET', '/v1/calls')).body).toMatchObject({
      _embedded: { calls: [{ to: redacted }] },
    });
  });

  it('sandbox reset wipes every leg and index', async () => {
    const apiKey = account();
    const created = await api(apiKey, 'POST', '/v1/calls', {
      ...BASE,
      to: [{ type: 'phone', number: '447700900014' }],
      ncco: [{ action: 'talk', text: 'x' }],
    });
    const uuid = String(created.body['uuid']);
    await worker.reset();
    expect(await inspect(uuid)).toBeNull();
    expect((await api(apiKey, 'GET', '/v1/calls')).body).toMatchObject({ count: 0 });
    expect(await worker.control(uuid, { action: 'answer' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
    // A wiped leg can be used again by its index: the schema is recreated.
    expect(await legStub(uuid).status()).toBeNull();
  });
});
