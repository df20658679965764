import { verifySignature } from '@vonage/jwt';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, inbox, stack, until } from './helpers';
import {
  balance,
  type CustomerServer,
  FROM,
  phone,
  sandboxCall,
  startCustomerServer,
  statuses,
  untilStatus,
  type VoiceAccount,
  voiceAccount,
} from './voice-kit';

let server: CustomerServer;
let va: VoiceAccount;

beforeAll(async () => {
  server = await startCustomerServer();
  va = await voiceAccount({ balance: 10 });
});

afterAll(async () => {
  await server.close();
});

// Each scenario waits on simulated time, not on the others: they run side by side, each with its own
// account so that the 3-a-second creation limit of one cannot throttle another.
describe.concurrent('outbound calls through @vonage/voice', () => {
  it('runs an NCCO call: events in order, signed, then getCall and search show the bill', async () => {
    const va = await voiceAccount();
    const before = await balance(va.account);
    const created = await va.voice.createOutboundCall({
      to: phone('447700900001'),
      from: FROM,
      ncco: [{ action: 'talk', text: 'Hello from the simulated network' }],
      eventUrl: [`${server.url}/event`],
    } as never);
    expect(created).toMatchObject({ status: 'started', direction: 'outbound' });
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.conversationUUID).toMatch(/^CON-/);

    const seen = await untilStatus(server, '/event', created.uuid, 'completed');
    expect(seen).toEqual(['started', 'ringing', 'answered', 'completed']);
    const events = server.received.filter((r) => r.path === '/event' && r.body['uuid'] === created.uuid);
    for (const e of events) {
      const token = decodeJwt(String(e.headers.authorization).replace(/^Bearer /, ''));
      expect(token).toMatchObject({ application_id: va.applicationId, api_key: va.account.api_key });
    }
    const completed = events.at(-1)!.body;
    expect(completed).toMatchObject({
      from: '447700900999',
      to: '447700900001',
      conversation_uuid: created.conversationUUID,
      direction: 'outbound',
      duration: '2',
      network: expect.any(String),
    });
    expect(Number(completed['price'])).toBeGreaterThan(0);

    const call = await va.voice.getCall(created.uuid);
    expect(call).toMatchObject({
      uuid: created.uuid,
      conversationUUID: created.conversationUUID,
      status: 'completed',
      direction: 'outbound',
      duration: '2',
      price: completed['price'],
      rate: completed['rate'],
      to: { type: 'phone', number: '447700900001' },
      from: { type: 'phone', number: '447700900999' },
    });
    expect(call.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const page = await va.voice.search({ conversationUuid: created.conversationUUID } as never);
    expect(page.count).toBe(1);
    expect(page._embedded.calls[0]).toMatchObject({
      uuid: created.uuid,
      status: 'completed',
      price: completed['price'],
    });

    // Charged once, through the ledger; and the callee's phone heard the talk.
    const after = await until(
      () => balance(va.account),
      (b) => b < before,
    );
    expect(Math.round((before - after) * 1e8)).toBe(Math.round(Number(completed['price']) * 1e8));
    expect((await inbox('447700900001')).filter((m) => m.channel === 'voice').map((m) => m.text)).toContain(
      'Hello from the simulated network',
    );
  });

  it('fetches the NCCO from an answer_url the receiver serves', async () => {
    const va = await voiceAccount();
    server.answers.set('/answer', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'Served by the answer URL' }]),
    });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900002'),
      from: FROM,
      answerUrl: [`${server.url}/answer`],
      eventUrl: [`${server.url}/event`],
    } as never);
    expect(await untilStatus(server, '/event', created.uuid, 'completed')).toEqual([
      'started',
      'ringing',
      'answered',
      'completed',
    ]);
    const asked = server.received.find((r) => r.path === '/answer' && r.query.get('uuid') === created.uuid)!;
    expect(asked.method).toBe('GET');
    expect(Object.fromEntries(asked.query)).toEqual({
      to: '447700900002',
      from: '447700900999',
      uuid: created.uuid,
      conversation_uuid: created.conversationUUID,
    });
    // Signed like the call's events: HS256 over the account's signature secret.
    const token = String(asked.headers.authorization).replace(/^Bearer /, '');
    expect(verifySignature(token, va.account.signature_secret)).toBe(true);
    expect(decodeJwt(token)).toMatchObject({ application_id: va.applicationId });
    expect((await inbox('447700900002')).map((m) => m.text)).toContain('Served by the answer URL');
  });

  it('ends a call whose answer_url gives an invalid NCCO, with the error event', async () => {
    const va = await voiceAccount();
    server.answers.set('/bad-answer', { status: 200, body: JSON.stringify([{ action: 'dance' }]) });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900003'),
      from: FROM,
      answerUrl: [`${server.url}/bad-answer`],
      answerMethod: 'POST',
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'completed');
    const error = server
      .events('/event')
      .find((e) => e['conversation_uuid'] === created.conversationUUID && e['reason']);
    expect(String(error?.['reason'])).toMatch(/^Syntax error in NCCO/);
    const asked = server.received.find((r) => r.path === '/bad-answer')!;
    expect(asked).toMatchObject({ method: 'POST', body: { uuid: created.uuid } });
  });

  it('reports a busy number as busy', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900400'),
      from: FROM,
      ncco: [{ action: 'talk', text: 'never heard' }],
      eventUrl: [`${server.url}/event`],
    } as never);
    expect(await untilStatus(server, '/event', created.uuid, 'busy')).toEqual(['started', 'busy']);
    expect((await va.voice.getCall(created.uuid)).status).toBe('busy');
  });

  it('hangs up on voicemail with machine_detection hangup', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900403'),
      from: FROM,
      ncco: [{ action: 'talk', text: 'never heard' }],
      machineDetection: 'hangup',
      eventUrl: [`${server.url}/event`],
    } as never);
    expect(await untilStatus(server, '/event', created.uuid, 'machine')).toEqual([
      'started',
      'ringing',
      'machine',
    ]);
    expect((await va.voice.getCall(created.uuid)).status).toBe('machine');
  });

  it('ends an answered call when length_timer runs out', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900004'),
      from: FROM,
      ncco: [{ action: 'conversation', name: 'waiting-room' }],
      lengthTimer: 2,
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'completed');
    const call = await va.voice.getCall(created.uuid);
    expect(call).toMatchObject({ status: 'completed', duration: '2' });
  });

  it('transfers a live call to a new NCCO, then to one from a URL', async () => {
    const va = await voiceAccount();
    server.answers.set('/transfer', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'Transferred' }]),
    });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900005'),
      from: FROM,
      ncco: [{ action: 'conversation', name: 'hold' }],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'answered');
    await va.voice.transferCallWithNCCO(created.uuid, [
      { action: 'conversation', name: 'second-room' },
    ] as never);
    await va.voice.transferCallWithURL(created.uuid, `${server.url}/transfer`);
    await untilStatus(server, '/event', created.uuid, 'completed');
    const transfers = server
      .events('/event')
      .filter((e) => e['uuid'] === created.uuid && e['conversation_uuid_from']);
    expect(transfers).toHaveLength(2);
    expect(server.received.find((r) => r.path === '/transfer')?.query.get('uuid')).toBe(created.uuid);
    expect((await inbox('447700900005')).map((m) => m.text)).toContain('Transferred');
  });
});

describe.concurrent('steering a call from the sandbox', () => {
  it('answers a ringing call, takes keys into an input, and hangs up', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900402'),
      from: FROM,
      ncco: [
        { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 4 }, eventUrl: [`${server.url}/input`] },
        { action: 'conversation', name: 'after-input' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'ringing');
    expect(await sandboxCall(created.uuid, { action: 'answer' })).toEqual({
      status: 200,
      body: { uuid: created.uuid, status: 'answered', consumed: true },
    });
    expect((await sandboxCall(created.uuid, { action: 'dtmf', digits: '1234' })).body).toMatchObject({
      consumed: true,
    });
    const input = await until(
      () => server.events('/input'),
      (e) => e.some((x) => x['uuid'] === created.uuid),
    );
    expect(input.find((x) => x['uuid'] === created.uuid)).toMatchObject({
      dtmf: { digits: '1234', timed_out: false },
    });
    expect((await sandboxCall(created.uuid, { action: 'answer' })).status).toBe(409);
    expect((await sandboxCall(created.uuid, { action: 'hangup' })).body).toMatchObject({
      status: 'completed',
    });
    const seen = await untilStatus(server, '/event', created.uuid, 'completed');
    expect(seen).toEqual(['started', 'ringing', 'answered', 'completed']);
    expect((await sandboxCall('00000000-0000-4000-8000-000000000000', { action: 'answer' })).status).toBe(
      404,
    );
  });

  it("follows the NCCO an input's eventUrl answers with (an IVR menu)", async () => {
    const va = await voiceAccount();
    server.answers.set('/ivr', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'You chose the billing menu' }]),
    });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900402'),
      from: FROM,
      ncco: [
        { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1 }, eventUrl: [`${server.url}/ivr`] },
        { action: 'talk', text: 'Replaced, never said' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'ringing');
    await sandboxCall(created.uuid, { action: 'answer' });
    await sandboxCall(created.uuid, { action: 'dtmf', digits: '2' });
    const spoken = async () => (await inbox('447700900402')).map((m) => m.text);
    const heard = await until(spoken, (texts) => texts.some((t) => t.includes('You chose the billing menu')));
    expect(heard.some((t) => t.includes('You chose the billing menu'))).toBe(true);
    expect(server.events('/ivr').find((x) => x['uuid'] === created.uuid)).toMatchObject({
      dtmf: { digits: '2', timed_out: false },
    });
    expect(heard.some((t) => t.includes('Replaced, never said'))).toBe(false);
    await sandboxCall(created.uuid, { action: 'hangup' });
  });

  it('connects a second leg in the same conversation, and goes on when it hangs up', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900007'),
      from: FROM,
      ncco: [
        { action: 'connect', endpoint: phone('447700900402'), eventUrl: [`${server.url}/leg`] },
        { action: 'talk', text: 'The agent left' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    const legEvents = await until(
      () => server.events('/leg').filter((e) => e['conversation_uuid'] === created.conversationUUID),
      (e) => e.some((x) => x['status'] === 'ringing'),
    );
    const child = String(legEvents[0]!['uuid']);
    expect(child).not.toBe(created.uuid);
    expect(legEvents[0]).toMatchObject({ to: '447700900402', from: '447700900999', status: 'started' });
    await sandboxCall(child, { action: 'answer' });
    await sandboxCall(child, { action: 'hangup' });
    await untilStatus(server, '/event', created.uuid, 'completed');
    expect(await untilStatus(server, '/leg', child, 'completed')).toEqual([
      'started',
      'ringing',
      'answered',
      'completed',
    ]);
    expect((await inbox('447700900007')).map((m) => m.text)).toContain('The agent left');
    const page = await va.voice.search({ conversationUuid: created.conversationUUID } as never);
    expect(page.count).toBe(2);
  });

  it('ends a ringing call as the callee decides: busy, reject, or by ringing_timer', async () => {
    const va = await voiceAccount();
    const calls = await Promise.all(
      [0, 1, 2].map(() =>
        va.voice.createOutboundCall({
          to: phone('447700900402'),
          from: FROM,
          ncco: [{ action: 'talk', text: 'x' }],
          ringingTimer: 2,
          eventUrl: [`${server.url}/event`],
        } as never),
      ),
    );
    const [busy, reject, timeout] = calls.map((c) => c.uuid) as [string, string, string];
    await sandboxCall(busy, { action: 'busy' });
    await sandboxCall(reject, { action: 'reject' });
    await untilStatus(server, '/event', timeout, 'timeout');
    expect((await untilStatus(server, '/event', busy, 'busy')).at(-1)).toBe('busy');
    expect((await untilStatus(server, '/event', reject, 'rejected')).at(-1)).toBe('rejected');
    expect(statuses(server, '/event', timeout)).toEqual(['started', 'ringing', 'timeout']);
  });
});

describe.concurrent('live-call operations', () => {
  it('talks, streams, plays DTMF, mutes and earmuffs a live call, then hangs up', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900006'),
      from: FROM,
      ncco: [{ action: 'conversation', name: 'live' }],
      eventUrl: [`${server.url}/event`],
    } as never);
    // Not answered yet: the call cannot take a talk.
    await expect(va.voice.playTTS(created.uuid, { text: 'too early' } as never)).rejects.toMatchObject({
      response: { status: 400 },
    });
    await untilStatus(server, '/event', created.uuid, 'answered');
    expect(await va.voice.playTTS(created.uuid, { text: 'Spoken into the call' } as never)).toMatchObject({
      message: 'Talk started',
      uuid: created.uuid,
    });
    expect(await va.voice.stopTTS(created.uuid)).toMatchObject({ message: 'Talk stopped' });
    expect(await va.voice.streamAudio(created.uuid, 'https://example.com/music.mp3')).toMatchObject({
      message: 'Stream started',
    });
    expect(await va.voice.stopStreamAudio(created.uuid)).toMatchObject({ message: 'Stream stopped' });
    expect(await va.voice.playDTMF(created.uuid, '1234#')).toMatchObject({ message: 'DTMF sent' });
    await va.voice.muteCall(created.uuid);
    await va.voice.earmuffCall(created.uuid);
    await va.voice.unmuteCall(created.uuid);
    await va.voice.unearmuffCall(created.uuid);
    await va.voice.hangupCall(created.uuid);
    await untilStatus(server, '/event', created.uuid, 'completed');
    await expect(va.voice.hangupCall(created.uuid)).rejects.toMatchObject({ response: { status: 400 } });
    expect((await inbox('447700900006')).map((m) => m.text)).toContain('Spoken into the call');

    const view = (await (
      await fetch(`${stack.url}/_sandbox/calls/${created.uuid}`, {
        headers: { authorization: `Bearer ${stack.token}` },
      })
    ).json()) as { timeline: { event: string }[] };
    expect(view.timeline.map((t) => t.event)).toEqual(
      expect.arrayContaining([
        'talk (API)',
        'stream (API)',
        'dtmf (API)',
        'mute',
        'earmuff',
        'unmute',
        'unearmuff',
      ]),
    );
  });

  it('cancels a call hung up before it is answered; 404 for an unknown call', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900402'),
      from: FROM,
      ncco: [{ action: 'talk', text: 'x' }],
      eventUrl: [`${server.url}/event`],
    } as never);
    await va.voice.hangupCall(created.uuid);
    expect(await untilStatus(server, '/event', created.uuid, 'cancelled')).toEqual(['started', 'cancelled']);
    await expect(va.voice.getCall('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      response: { status: 404 },
    });
    // Another account's calls are not found either.
    const other = await voiceAccount();
    await expect(other.voice.getCall(created.uuid)).rejects.toMatchObject({ response: { status: 404 } });
  });
});

describe('listing calls', () => {
  it('filters by status and conversation, orders, pages with absolute links', async () => {
    const lister = await voiceAccount();
    const uuids: string[] = [];
    for (const number of ['447700900400', '447700900400', '447700900402']) {
      const created = await lister.voice.createOutboundCall({
        to: phone(number),
        from: FROM,
        ncco: [{ action: 'talk', text: 'x' }],
        eventUrl: [`${server.url}/event`],
      } as never);
      uuids.push(created.uuid);
    }
    await untilStatus(server, '/event', uuids[0]!, 'busy');
    await untilStatus(server, '/event', uuids[1]!, 'busy');
    const all = await lister.voice.search({ pageSize: 2 } as never);
    expect(all).toMatchObject({ count: 3, page_size: 2, record_index: 0 });
    expect(all._embedded.calls.map((c) => c.uuid)).toEqual(uuids.slice(0, 2));
    const next = new URL((all._links as { next: { href: string } }).next.href);
    expect(next.searchParams.get('record_index')).toBe('2');
    const every: string[] = [];
    for await (const call of lister.voice.getAllCalls({ pageSize: 2 } as never)) every.push(call.uuid);
    expect(every).toEqual(uuids);
    const desc = await lister.voice.search({ order: 'desc' } as never);
    expect(desc._embedded.calls.map((c) => c.uuid)).toEqual([...uuids].reverse());
    expect((await lister.voice.search({ status: 'busy' } as never)).count).toBe(2);
    const window = await lister.voice.search({
      dateStart: new Date(Date.now() - 60_000).toISOString(),
      dateEnd: new Date(Date.now() + 60_000).toISOString(),
    } as never);
    expect(window.count).toBe(3);
    expect((await lister.voice.search({ dateEnd: '2000-01-01T00:00:00Z' } as never)).count).toBe(0);
    await lister.voice.hangupCall(uuids[2]!);
  });
});

describe("the application's webhooks", () => {
  it('sends events to the application event_url when the create body has none', async () => {
    const owner = await voiceAccount(
      {},
      {
        capabilities: {
          voice: { webhooks: { event_url: { address: `${server.url}/app-events`, http_method: 'POST' } } },
        },
      },
    );
    const created = await owner.voice.createOutboundCall({
      to: phone('447700900400'),
      from: FROM,
      ncco: [{ action: 'talk', text: 'x' }],
    } as never);
    await untilStatus(server, '/app-events', created.uuid, 'busy');
  });
});

describe('create body validation', () => {
  const valid = () => ({
    to: [{ type: 'phone', number: '447700900001' }],
    from: { type: 'phone', number: '447700900999' },
    ncco: [{ action: 'talk', text: 'hi' }],
    event_url: [`${server.url}/event`],
  });

  async function create(body: unknown, jwt = va.jwt(), raw = false) {
    const res = await fetch(`${stack.url}/v1/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const cases: [string, (b: Record<string, unknown>) => unknown, string][] = [
    ['no to', ({ to: _, ...b }) => b, 'to'],
    ['an empty to', (b) => ({ ...b, to: [] }), 'to'],
    ['two endpoints', (b) => ({ ...b, to: [...(b['to'] as unknown[]), ...(b['to'] as unknown[])] }), 'to'],
    [
      'an unknown endpoint type',
      (b) => ({ ...b, to: [{ type: 'fax', number: '447700900001' }] }),
      'to.0.type',
    ],
    ['a short number', (b) => ({ ...b, to: [{ type: 'phone', number: '123456' }] }), 'to.0.number'],
    ['a long number', (b) => ({ ...b, to: [{ type: 'phone', number: '1234567890123456' }] }), 'to.0.number'],
    [
      'a bad dtmfAnswer',
      (b) => ({ ...b, to: [{ type: 'phone', number: '447700900001', dtmfAnswer: 'x' }] }),
      'to.0.dtmfAnswer',
    ],
    [
      'a long SIP URI',
      (b) => ({ ...b, to: [{ type: 'sip', uri: `sip:${'a'.repeat(50)}@example.com` }] }),
      'to.0.uri',
    ],
    [
      'a websocket without content-type',
      (b) => ({ ...b, to: [{ type: 'websocket', uri: 'wss://example.com/socket' }] }),
      'to.0.content-type',
    ],
    [
      'a websocket with a bad content-type',
      (b) => ({
        ...b,
        to: [{ type: 'websocket', uri: 'wss://example.com/socket', 'content-type': 'audio/mp3' }],
      }),
      'to.0.content-type',
    ],
    [
      'websocket headers that are not strings',
      (b) => ({
        ...b,
        to: [
          {
            type: 'websocket',
            uri: 'wss://e.com/s',
            'content-type': 'audio/l16;rate=8000',
            headers: { a: 1 },
          },
        ],
      }),
      'to.0.headers.a',
    ],
    ['a vbc endpoint without extension', (b) => ({ ...b, to: [{ type: 'vbc' }] }), 'to.0.extension'],
    ['both ncco and answer_url', (b) => ({ ...b, answer_url: ['https://example.com/answer'] }), 'ncco'],
    ['neither ncco nor answer_url', ({ ncco: _, ...b }) => b, 'ncco'],
    ['answer_method with an ncco', (b) => ({ ...b, answer_method: 'GET' }), 'answer_method'],
    [
      'a bad answer_method',
      ({ ncco: _, ...b }) => ({ ...b, answer_url: ['https://example.com/a'], answer_method: 'PUT' }),
      'answer_method',
    ],
    ['an answer_url that is no URL', ({ ncco: _, ...b }) => ({ ...b, answer_url: ['nope'] }), 'answer_url.0'],
    ['an unknown NCCO action', (b) => ({ ...b, ncco: [{ action: 'dance' }] }), 'ncco.0.action'],
    ['a talk without text', (b) => ({ ...b, ncco: [{ action: 'talk' }] }), 'ncco.0.text'],
    ['an empty NCCO', (b) => ({ ...b, ncco: [] }), 'ncco'],
    ['an NCCO that is not an array', (b) => ({ ...b, ncco: { action: 'talk', text: 'x' } }), 'ncco'],
    ['from and random_from_number', (b) => ({ ...b, random_from_number: true }), 'random_from_number'],
    ['neither from nor random_from_number', ({ from: _, ...b }) => b, 'from'],
    [
      'a from that is not a phone',
      (b) => ({ ...b, from: { type: 'sip', number: '447700900999' } }),
      'from.type',
    ],
    ['a from with a bad number', (b) => ({ ...b, from: { type: 'phone', number: 'abc' } }), 'from.number'],
    ['no event_url', ({ event_url: _, ...b }) => b, 'event_url'],
    ['an event_url that is no URL', (b) => ({ ...b, event_url: ['ftp://example.com'] }), 'event_url.0'],
    ['an empty event_url', (b) => ({ ...b, event_url: [] }), 'event_url'],
    ['a bad event_method', (b) => ({ ...b, event_method: 'PATCH' }), 'event_method'],
    ['a bad machine_detection', (b) => ({ ...b, machine_detection: 'ignore' }), 'machine_detection'],
    ['length_timer 0', (b) => ({ ...b, length_timer: 0 }), 'length_timer'],
    ['length_timer 7201', (b) => ({ ...b, length_timer: 7201 }), 'length_timer'],
    ['a fractional length_timer', (b) => ({ ...b, length_timer: 1.5 }), 'length_timer'],
    ['ringing_timer 0', (b) => ({ ...b, ringing_timer: 0 }), 'ringing_timer'],
    ['ringing_timer 121', (b) => ({ ...b, ringing_timer: 121 }), 'ringing_timer'],
    [
      'random_from_number that is not a boolean',
      ({ from: _, ...b }) => ({ ...b, random_from_number: 'yes' }),
      'random_from_number',
    ],
  ];

  it.each(cases)('refuses %s with a 400 naming the field', async (_, change, field) => {
    const res = await create(change(valid()));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Bad Request', instance: expect.any(String) });
    const names = (res.body['invalid_parameters'] as { name: string }[]).map((p) => p.name);
    expect(names).toContain(field);
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    expect((await create('{not json', va.jwt(), true)).status).toBe(400);
    expect((await create([1, 2])).body['invalid_parameters']).toEqual([
      { name: 'body', reason: 'Must be a JSON object' },
    ]);
  });

  it('refuses random_from_number when the application has no voice number', async () => {
    const { from: _, ...body } = valid();
    const res = await create({ ...body, random_from_number: true });
    expect(res.status).toBe(400);
    expect(res.body['invalid_parameters']).toEqual([
      { name: 'random_from_number', reason: expect.any(String) },
    ]);
  });

  it('needs an application JWT: 401 without one, with Basic, or with a bad token', async () => {
    const noAuth = await fetch(`${stack.url}/v1/calls`, { method: 'POST', body: JSON.stringify(valid()) });
    expect(noAuth.status).toBe(401);
    const withBasic = await fetch(`${stack.url}/v1/calls`, {
      method: 'POST',
      headers: { authorization: basic(va.account.api_key, va.account.api_secret) },
      body: JSON.stringify(valid()),
    });
    expect(withBasic.status).toBe(401);
    expect((await create(valid(), 'not.a.token')).status).toBe(401);
  });

  it('answers 429 past 3 creations a second per account', async () => {
    const burst = await voiceAccount();
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        create({ ...valid(), to: [{ type: 'phone', number: '447700900400' }] }, burst.jwt()),
      ),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    expect(results.find((r) => r.status === 429)!.body).toMatchObject({ title: 'Too Many Requests' });
  });

  it("keeps to a lower max-calls-per-second of the account's settings", async () => {
    const slow = await voiceAccount({ settings: { 'max-calls-per-second': 1 } });
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        create({ ...valid(), to: [{ type: 'phone', number: '447700900400' }] }, slow.jwt()),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429]);
    expect(results.find((r) => r.status === 429)!.body).toMatchObject({
      detail: 'At most 1 call a second may be created for this account',
    });
  });

  it('places calls with random_from_number from the application numbers', async () => {
    const owner = await voiceAccount({ balance: 20 });
    const search = await fetch(
      `${stack.url}/number/search?api_key=${owner.account.api_key}&api_secret=${owner.account.api_secret}&country=GB&features=VOICE`,
    );
    const { numbers } = (await search.json()) as { numbers: { msisdn: string }[] };
    const msisdn = numbers[0]!.msisdn;
    const auth = `api_key=${owner.account.api_key}&api_secret=${owner.account.api_secret}`;
    expect(
      (await fetch(`${stack.url}/number/buy?${auth}&country=GB&msisdn=${msisdn}`, { method: 'POST' })).status,
    ).toBe(200);
    const update = await fetch(
      `${stack.url}/number/update?${auth}&country=GB&msisdn=${msisdn}&app_id=${owner.applicationId}`,
      {
        method: 'POST',
      },
    );
    expect(update.status).toBe(200);
    const { from: _, ...body } = valid();
    const res = await create({ ...body, random_from_number: true }, owner.jwt());
    expect(res.status).toBe(201);
    const events = await until(
      () => server.events('/event').filter((e) => e['uuid'] === res.body['uuid']),
      (e) => e.length > 0,
    );
    expect(events[0]).toMatchObject({ from: msisdn });
  });
});
