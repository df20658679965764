import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Voice } from '@vonage/voice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbox, onVendorHost, stack, until } from './helpers';
import {
  type CustomerServer,
  FROM,
  phone,
  sandboxCall,
  startCustomerServer,
  statuses,
  untilAction,
  untilStatus,
  type VoiceAccount,
  voiceAccount,
} from './voice-kit';

let server: CustomerServer;

beforeAll(async () => {
  server = await startCustomerServer();
});

afterAll(async () => {
  await server.close();
});

/** The words a phone heard from text-to-speech, once `text` is among them. */
async function heard(msisdn: string, text: string): Promise<string[]> {
  return until(
    async () => (await inbox(msisdn)).map((m) => m.text),
    (texts) => texts.some((t) => t.includes(text)),
  );
}

/** A number of the account with the VOICE feature, bought and linked to its application. */
async function linkedNumber(owner: VoiceAccount): Promise<string> {
  const auth = `api_key=${owner.account.api_key}&api_secret=${owner.account.api_secret}`;
  const search = await fetch(`${stack.url}/number/search?${auth}&country=GB&features=VOICE`);
  const { numbers } = (await search.json()) as { numbers: { msisdn: string }[] };
  const msisdn = numbers[0]!.msisdn;
  const buy = await fetch(`${stack.url}/number/buy?${auth}&country=GB&msisdn=${msisdn}`, { method: 'POST' });
  expect(buy.status).toBe(200);
  const update = await fetch(
    `${stack.url}/number/update?${auth}&country=GB&msisdn=${msisdn}&app_id=${owner.applicationId}`,
    { method: 'POST' },
  );
  expect(update.status).toBe(200);
  return msisdn;
}

async function download(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

describe.concurrent('recordings', () => {
  it('serves the recording a record event names, to the owning account only', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900011'),
      from: FROM,
      ncco: [
        { action: 'record', endOnKey: '#', eventUrl: [`${server.url}/recording`] },
        { action: 'record', format: 'wav', timeOut: 3, eventUrl: [`${server.url}/recording`] },
        { action: 'talk', text: 'Thank you' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilAction(created.uuid, 'record');
    expect((await sandboxCall(created.uuid, { action: 'dtmf', digits: '#' })).body).toMatchObject({
      consumed: true,
    });
    const events = await until(
      () => server.events('/recording').filter((e) => e['conversation_uuid'] === created.conversationUUID),
      (e) => e.length === 2,
    );
    expect(events).toHaveLength(2);
    const [mp3, wav] = events as Record<string, unknown>[];
    expect(mp3).toMatchObject({ recording_url: expect.stringMatching(/\/v1\/files\/[0-9a-f-]{36}$/) });

    const first = await download(String(mp3!['recording_url']), va.jwt());
    expect(first.status).toBe(200);
    expect(first.type).toBe('audio/mpeg');
    expect(first.bytes.length).toBe(mp3!['size']);
    // An MPEG audio frame starts with 11 set sync bits.
    expect(first.bytes[0]).toBe(0xff);
    expect(first.bytes[1]! & 0xe0).toBe(0xe0);

    const second = await download(String(wav!['recording_url']), va.jwt());
    expect(second.type).toBe('audio/wav');
    expect(second.bytes.length).toBe(wav!['size']);
    expect(new TextDecoder().decode(second.bytes.slice(0, 4))).toBe('RIFF');
    // Three seconds of `timeOut`: the file holds that much audio.
    const view = new DataView(second.bytes.buffer);
    const byteRate = view.getUint32(28, true);
    expect(view.getUint32(40, true) / byteRate).toBeCloseTo(3, 1);

    // Where the SDK downloads by id, too.
    const byId = await download(`${stack.url}/v3/files/${mp3!['recording_uuid']}`, va.jwt());
    expect(byId.bytes).toEqual(first.bytes);

    const stranger = await voiceAccount();
    expect((await download(String(mp3!['recording_url']), stranger.jwt())).status).toBe(404);
    expect((await download(String(mp3!['recording_url']))).status).toBe(401);
    expect((await download(`${stack.url}/v1/files/not-a-recording`, va.jwt())).status).toBe(404);
  });
});

describe('recordings through @vonage/voice', () => {
  it("downloads with the SDK's downloadRecording when the stack answers on a vendor host name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recording-'));
    const va = await voiceAccount();
    await onVendorHost(async (vendorHost) => {
      const voice = new Voice(
        { applicationId: va.applicationId, privateKey: va.privateKey },
        { apiHost: vendorHost },
      );
      const created = await voice.createOutboundCall({
        to: phone('447700900017'),
        from: FROM,
        ncco: [{ action: 'record', timeOut: 3, eventUrl: [`${server.url}/sdk-recording`] }],
        eventUrl: [`${server.url}/event`],
      } as never);
      const [event] = await until(
        () =>
          server.events('/sdk-recording').filter((e) => e['conversation_uuid'] === created.conversationUUID),
        (e) => e.length > 0,
      );
      const url = String(event!['recording_url']);
      expect(url.startsWith(`${vendorHost}/v1/files/`)).toBe(true);
      const path = join(dir, 'call.mp3');
      await voice.downloadRecording(url, path);
      const bytes = readFileSync(path);
      expect(bytes.length).toBe(event!['size']);
      expect(bytes[0]).toBe(0xff);
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
  });
});

describe.concurrent('NCCOs that answer synchronously', () => {
  it("notify: an NCCO the eventUrl answers replaces the call's", async () => {
    const va = await voiceAccount();
    server.answers.set('/notify-ncco', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'Your notification was received loud and clear' }]),
    });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900012'),
      from: FROM,
      ncco: [
        { action: 'talk', text: 'Thanks for calling the notification line' },
        { action: 'notify', payload: { foo: 'bar' }, eventUrl: [`${server.url}/notify-ncco`] },
        { action: 'talk', text: 'You will never hear me' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    const texts = await heard('447700900012', 'loud and clear');
    expect(texts.some((t) => t.includes('loud and clear'))).toBe(true);
    expect(texts.some((t) => t.includes('never hear me'))).toBe(false);
    expect(server.events('/notify-ncco')).toContainEqual({ foo: 'bar' });
    await untilStatus(server, '/event', created.uuid, 'completed');
  });

  it('connect with eventType synchronous: a busy leg hands the call to the NCCO its eventUrl answers', async () => {
    const va = await voiceAccount();
    server.answers.set('/failover', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'Nobody is free, please call back later' }]),
    });
    const created = await va.voice.createOutboundCall({
      to: phone('447700900013'),
      from: FROM,
      ncco: [
        {
          action: 'connect',
          eventType: 'synchronous',
          eventUrl: [`${server.url}/failover`],
          endpoint: phone('447700900400'),
        },
        { action: 'talk', text: 'Not after a failover' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    const texts = await heard('447700900013', 'Nobody is free');
    expect(texts.some((t) => t.includes('Not after a failover'))).toBe(false);
    const failover = server
      .events('/failover')
      .find((e) => e['conversation_uuid'] === created.conversationUUID && e['status'] === 'busy');
    expect(failover).toMatchObject({ to: '447700900400', status: 'busy' });
    await untilStatus(server, '/event', created.uuid, 'completed');
  });

  it('bargeIn: a key pressed during the talk goes to the input that follows', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900014'),
      from: FROM,
      ncco: [
        {
          action: 'talk',
          text: 'Welcome to the menu. Press one for sales, two for support, or stay on the line to hear it all again and again.',
          bargeIn: true,
        },
        { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1 }, eventUrl: [`${server.url}/menu`] },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'answered');
    expect((await sandboxCall(created.uuid, { action: 'dtmf', digits: '2' })).body).toMatchObject({
      consumed: true,
    });
    const menu = await until(
      () => server.events('/menu').filter((e) => e['uuid'] === created.uuid),
      (e) => e.length > 0,
    );
    expect(menu[0]).toMatchObject({ dtmf: { digits: '2', timed_out: false } });
  });

  it('subscribeDTMF: each key goes to the listener until unsubscribeDTMF', async () => {
    const va = await voiceAccount();
    const created = await va.voice.createOutboundCall({
      to: phone('447700900015'),
      from: FROM,
      ncco: [{ action: 'conversation', name: `room-${Date.now()}` }],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilStatus(server, '/event', created.uuid, 'answered');
    await va.voice.subscribeDTMF(created.uuid, `${server.url}/keys`);
    expect((await sandboxCall(created.uuid, { action: 'dtmf', digits: '12' })).body).toMatchObject({
      consumed: true,
    });
    const keys = await until(
      () => server.events('/keys').filter((e) => e['uuid'] === created.uuid),
      (e) => e.length === 2,
    );
    expect(keys.map((k) => k['dtmf'])).toEqual([
      { digits: '1', timed_out: false },
      { digits: '2', timed_out: false },
    ]);
    await va.voice.unsubscribeDTMF(created.uuid);
    expect((await sandboxCall(created.uuid, { action: 'dtmf', digits: '3' })).body).toMatchObject({
      consumed: false,
    });
    const missing = await fetch(`${stack.url}/v1/calls/${crypto.randomUUID()}/input/dtmf`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${va.jwt()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_url: [`${server.url}/keys`] }),
    });
    expect(missing.status).toBe(404);
    const bad = await fetch(`${stack.url}/v1/calls/${created.uuid}/input/dtmf`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${va.jwt()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_url: 'not a list' }),
    });
    expect(bad.status).toBe(400);
    await va.voice.hangupCall(created.uuid);
  });

  it("fallback_answer_url: the application's fallback answers when answer_url fails", async () => {
    server.answers.set('/broken-answer', { status: 500, body: 'down' });
    server.answers.set('/fallback-answer', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'This is the fallback NCCO' }]),
    });
    const va = await voiceAccount(
      {},
      {
        capabilities: {
          voice: {
            webhooks: {
              fallback_answer_url: { address: `${server.url}/fallback-answer`, http_method: 'GET' },
            },
          },
        },
      },
    );
    const created = await va.voice.createOutboundCall({
      to: phone('447700900016'),
      from: FROM,
      answerUrl: [`${server.url}/broken-answer`],
      eventUrl: [`${server.url}/event`],
    } as never);
    await heard('447700900016', 'fallback NCCO');
    const asked = server.received.find(
      (r) => r.path === '/fallback-answer' && r.query.get('uuid') === created.uuid,
    );
    expect(asked?.query.get('conversation_uuid')).toBe(created.conversationUUID);
    await untilStatus(server, '/event', created.uuid, 'completed');
  });
});

describe('fallback for event URLs that answer synchronously', () => {
  it("an input eventUrl that fails hands its result to the application's fallback_answer_url", async () => {
    server.answers.set('/broken-input', { status: 503, body: 'down' });
    server.answers.set('/input-fallback', {
      status: 200,
      body: JSON.stringify([{ action: 'talk', text: 'The fallback took your choice' }]),
    });
    const va = await voiceAccount(
      {},
      {
        capabilities: {
          voice: {
            webhooks: {
              fallback_answer_url: { address: `${server.url}/input-fallback`, http_method: 'POST' },
            },
          },
        },
      },
    );
    const created = await va.voice.createOutboundCall({
      to: phone('447700900022'),
      from: FROM,
      ncco: [
        { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1 }, eventUrl: [`${server.url}/broken-input`] },
        { action: 'talk', text: 'Not after the fallback' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilAction(created.uuid, 'input');
    await sandboxCall(created.uuid, { action: 'dtmf', digits: '5' });
    const texts = await heard('447700900022', 'The fallback took your choice');
    expect(texts.some((t) => t.includes('Not after the fallback'))).toBe(false);
    expect(server.events('/input-fallback').find((e) => e['uuid'] === created.uuid)).toMatchObject({
      dtmf: { digits: '5', timed_out: false },
    });
  });
});

describe('named conversations', () => {
  it('a moderator with endOnExit ends the conversation: the other leg goes on with its NCCO', async () => {
    const va = await voiceAccount();
    const room = `standup-${Date.now()}`;
    const moderator = await va.voice.createOutboundCall({
      to: phone('447700900018'),
      from: FROM,
      ncco: [{ action: 'conversation', name: room, endOnExit: true }],
      eventUrl: [`${server.url}/event`],
    } as never);
    const member = await va.voice.createOutboundCall({
      to: phone('447700900019'),
      from: FROM,
      ncco: [
        { action: 'conversation', name: room, startOnEnter: false },
        { action: 'talk', text: 'The meeting is over, goodbye' },
      ],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilAction(moderator.uuid, 'conversation');
    await untilAction(member.uuid, 'conversation');
    expect((await sandboxCall(moderator.uuid, { action: 'hangup' })).status).toBe(200);
    const texts = await heard('447700900019', 'The meeting is over');
    expect(texts.some((t) => t.includes('The meeting is over'))).toBe(true);
    await untilStatus(server, '/event', member.uuid, 'completed');
    const view = (await (
      await fetch(`${stack.url}/_sandbox/calls/${member.uuid}`, {
        headers: { authorization: `Bearer ${stack.token}` },
      })
    ).json()) as { timeline: { event: string }[] };
    expect(view.timeline.map((t) => t.event)).toContain(`conversation ${room} ended (endOnExit)`);
  });

  it('a leg without endOnExit leaving does not end the conversation for the others', async () => {
    const va = await voiceAccount();
    const room = `open-${Date.now()}`;
    const first = await va.voice.createOutboundCall({
      to: phone('447700900020'),
      from: FROM,
      ncco: [{ action: 'conversation', name: room }],
      eventUrl: [`${server.url}/event`],
    } as never);
    const second = await va.voice.createOutboundCall({
      to: phone('447700900021'),
      from: FROM,
      ncco: [{ action: 'conversation', name: room }],
      eventUrl: [`${server.url}/event`],
    } as never);
    await untilAction(first.uuid, 'conversation');
    await untilAction(second.uuid, 'conversation');
    const view = (await (
      await fetch(`${stack.url}/_sandbox/calls/${second.uuid}`, {
        headers: { authorization: `Bearer ${stack.token}` },
      })
    ).json()) as { conversation: { name: string; members: { uuid: string }[] } };
    expect(view.conversation.name).toBe(room);
    expect(view.conversation.members.map((m) => m.uuid).sort()).toEqual([first.uuid, second.uuid].sort());
    await sandboxCall(first.uuid, { action: 'hangup' });
    await untilStatus(server, '/event', first.uuid, 'completed');
    const call = await va.voice.getCall(second.uuid);
    expect(call.status).toBe('answered');
    await va.voice.hangupCall(second.uuid);
  });
});

describe('inbound calls', () => {
  it('a phone calls a rented number: the application answers, the caller keys, hangs up, and is billed', async () => {
    const owner = await voiceAccount(
      { balance: 10 },
      {
        capabilities: {
          voice: {
            webhooks: {
              answer_url: { address: `${server.url}/inbound-answer`, http_method: 'GET' },
              event_url: { address: `${server.url}/inbound-event`, http_method: 'POST' },
            },
          },
        },
      },
    );
    const msisdn = await linkedNumber(owner);
    server.answers.set('/inbound-answer', {
      status: 200,
      body: JSON.stringify([
        { action: 'talk', text: 'Welcome to the inbound line' },
        {
          action: 'input',
          type: ['dtmf'],
          dtmf: { maxDigits: 1 },
          eventUrl: [`${server.url}/inbound-input`],
        },
        { action: 'conversation', name: `inbound-${msisdn}` },
      ]),
    });
    const caller = '447700900123';
    const res = await fetch(`${stack.url}/_sandbox/handsets/${caller}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: msisdn }),
    });
    expect(res.status).toBe(201);
    const placed = (await res.json()) as { uuid: string; conversation_uuid: string; direction: string };
    expect(placed.direction).toBe('inbound');

    await untilStatus(server, '/inbound-event', placed.uuid, 'answered');
    const answer = await until(
      () => server.received.find((r) => r.path === '/inbound-answer' && r.query.get('uuid') === placed.uuid),
      (r) => r !== undefined,
    );
    expect(Object.fromEntries(answer!.query)).toMatchObject({
      to: msisdn,
      from: caller,
      conversation_uuid: placed.conversation_uuid,
    });
    expect(server.events('/inbound-event').find((e) => e['uuid'] === placed.uuid)).toMatchObject({
      direction: 'inbound',
      from: caller,
      to: msisdn,
      status: 'started',
    });
    await heard(caller, 'Welcome to the inbound line');
    await untilAction(placed.uuid, 'input');
    await sandboxCall(placed.uuid, { action: 'dtmf', digits: '7' });
    const input = await until(
      () => server.events('/inbound-input').filter((e) => e['uuid'] === placed.uuid),
      (e) => e.length > 0,
    );
    expect(input[0]).toMatchObject({ dtmf: { digits: '7' }, from: caller, to: msisdn });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await sandboxCall(placed.uuid, { action: 'hangup' })).status).toBe(200);
    expect(await untilStatus(server, '/inbound-event', placed.uuid, 'completed')).toEqual([
      'started',
      'ringing',
      'answered',
      'completed',
    ]);
    const call = await owner.voice.getCall(placed.uuid);
    expect(call).toMatchObject({ direction: 'inbound', status: 'completed', rate: '0.00400000' });
    expect(Number(call.duration)).toBeGreaterThanOrEqual(2);
    expect(Number(call.price)).toBeGreaterThan(0);
    expect(statuses(server, '/inbound-event', placed.uuid)).not.toContain('failed');
  });

  it('refuses a call to a number nobody rents (404) or one without a voice application (409)', async () => {
    const call = (to: string) =>
      fetch(`${stack.url}/_sandbox/handsets/447700900124/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to }),
      });
    expect((await call('447700900999')).status).toBe(404);
    expect((await call('12')).status).toBe(400);
    const owner = await voiceAccount();
    const msisdn = await linkedNumber(owner);
    const refused = await call(msisdn);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ detail: expect.stringContaining('answer_url') });
  });
});
