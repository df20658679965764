import { describe, expect, it } from 'vitest';
import { perSecondPrice, talkMs } from './machine';
import type { NccoAction } from './ncco';
import { recordingSize } from './recording-audio';
import { Driver, OUTCOMES, setupOf, T0 } from './testing/fixtures';

const ncco = (...actions: Record<string, unknown>[]) => actions as NccoAction[];

describe('a call to a phone that answers', () => {
  it('goes started, ringing, answered, completed and bills the seconds it was up', () => {
    const call = new Driver(setupOf());
    expect(call.state.status).toBe('started');
    call.wait(1000);
    expect(call.state.status).toBe('ringing');
    call.wait(2000);
    expect(call.state.status).toBe('answered');
    // 7 words at 400 ms each: the talk ends 2.8 s after the answer, and with it the NCCO and the call.
    call.wait(3000);
    expect(call.statuses()).toEqual(['started', 'ringing', 'answered', 'completed']);
    expect(call.state.endedAt).toBe(T0 + 3000 + 2800);
    expect(call.state.durationSeconds).toBe(3);
    expect(call.state.price).toBe(perSecondPrice(2_500_000, 3));

    const events = call.webhooks();
    expect(events.map((e) => e['status'])).toEqual(['started', 'ringing', 'answered', 'completed']);
    expect(events[0]).toEqual({
      from: '447700900999',
      to: '447700900001',
      uuid: '11111111-1111-4111-8111-111111111111',
      conversation_uuid: 'CON-22222222-2222-4222-8222-222222222222',
      status: 'started',
      direction: 'outbound',
      timestamp: new Date(T0).toISOString(),
    });
    expect(events[2]).toMatchObject({ status: 'answered', start_time: null, rate: null, network: null });
    expect(events[3]).toMatchObject({
      status: 'completed',
      start_time: new Date(T0 + 3000).toISOString(),
      end_time: new Date(T0 + 5800).toISOString(),
      duration: '3',
      rate: '0.02500000',
      price: '0.00125000',
      network: '23415',
      disconnected_by: 'platform',
    });
  });

  it('says its talk actions to the callee and charges once, with the VOICE-CALL report fields', () => {
    const call = new Driver(setupOf());
    call.wait(3000);
    call.wait(10_000);
    call.wait(10_000);
    expect(call.effects.filter((e) => e.kind === 'say')).toEqual([
      { kind: 'say', handset: '447700900001', text: 'Hello there, this is a test call' },
    ]);
    expect(call.charges()).toEqual([
      {
        kind: 'charge',
        amount: 125_000,
        record: {
          account_id: 'abcd1234',
          call_id: '11111111-1111-4111-8111-111111111111',
          date_start: new Date(T0 + 3000).toISOString(),
          date_end: new Date(T0 + 5800).toISOString(),
          duration: '3',
          status: 'completed',
          currency: 'EUR',
          price: '0.00125000',
          total_price: '0.00125000',
          direction: 'outbound',
          from: '447700900999',
          to: '447700900001',
          network: '23415',
          network_name: 'Vodafone',
          country: 'GB',
          country_name: 'United Kingdom',
          status_description: 'completed',
        },
      },
    ]);
  });

  it('fires timers at their own time when the alarm comes late', () => {
    const call = new Driver(setupOf());
    call.wait(60_000);
    expect(call.statuses()).toEqual(['started', 'ringing', 'answered', 'completed']);
    expect(call.state.history.map((h) => h.at - T0)).toEqual([0, 1000, 3000, 5800]);
  });

  it('is ended by length_timer while an endless talk plays', () => {
    const call = new Driver(
      setupOf({ lengthTimerMs: 2000, ncco: ncco({ action: 'talk', text: 'Hold', loop: 0 }) }),
    );
    call.wait(3000);
    expect(call.state.status).toBe('answered');
    call.wait(1999);
    expect(call.state.status).toBe('answered');
    call.wait(1);
    expect(call.state.status).toBe('completed');
    expect(call.state.durationSeconds).toBe(2);
  });

  it('ends when the callee hangs up', () => {
    const call = new Driver(
      setupOf({ outcome: OUTCOMES['hangsUp']!, ncco: ncco({ action: 'conversation', name: 'room' }) }),
    );
    call.wait(3000);
    call.wait(5000);
    expect(call.state.status).toBe('completed');
    expect(call.webhooks().at(-1)).toMatchObject({
      status: 'completed',
      disconnected_by: 'user',
      duration: '5',
    });
  });
});

describe('calls that do not connect', () => {
  it.each([
    ['busy', 'busy', ['started', 'busy'], 'busy'],
    ['declines', 'rejected', ['started', 'ringing', 'rejected'], 'declined'],
    ['unreachable', 'unanswered', ['started', 'unanswered'], 'unavailable'],
    ['fails', 'failed', ['started', 'failed'], 'cannot_route'],
  ])('%s: ends %s with the detail and a charge of nothing', (outcome, status, path, detail) => {
    const call = new Driver(setupOf({ outcome: OUTCOMES[outcome]! }));
    call.wait(1000);
    call.wait(2000);
    expect(call.statuses()).toEqual(path);
    expect(call.webhooks().at(-1)).toMatchObject({ status, detail });
    expect(call.charges()).toEqual([
      expect.objectContaining({
        amount: 0,
        record: expect.objectContaining({ status, price: '0.00000000' }),
      }),
    ]);
  });

  it('times out when ringing outlasts ringing_timer', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['ringsForever']!, ringingTimerMs: 5000 }));
    call.wait(1000);
    call.wait(4999);
    expect(call.state.status).toBe('ringing');
    call.wait(1);
    expect(call.statuses()).toEqual(['started', 'ringing', 'timeout']);
  });

  it('is cancelled when hung up through the API before it is answered', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['ringsForever']! }));
    call.wait(1000);
    expect(call.send({ kind: 'hangup' }).outcome).toEqual({ ok: true });
    expect(call.statuses()).toEqual(['started', 'ringing', 'cancelled']);
    expect(call.charges()).toHaveLength(1);
    expect(call.send({ kind: 'hangup' }).outcome).toMatchObject({ ok: false, reason: 'invalid-state' });
  });
});

describe('voicemail and machine detection', () => {
  it('hangup: ends the call as machine, without running the NCCO or billing', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['voicemail']!, machineDetection: 'hangup' }));
    call.wait(3000);
    expect(call.statuses()).toEqual(['started', 'ringing', 'machine']);
    expect(call.state.endedAt).not.toBeNull();
    expect(call.effects.some((e) => e.kind === 'say')).toBe(false);
    expect(call.charges()).toEqual([expect.objectContaining({ amount: 0 })]);
  });

  it('continue: sends the machine event and runs the NCCO to the voicemail', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['voicemail']!, machineDetection: 'continue' }));
    call.wait(3000);
    expect(call.state.status).toBe('machine');
    expect(call.webhooks().at(-1)).toMatchObject({ status: 'machine', call_uuid: call.state.setup.uuid });
    call.wait(5000);
    expect(call.statuses()).toEqual(['started', 'ringing', 'answered', 'machine', 'completed']);
    expect(call.charges()).toEqual([expect.objectContaining({ amount: perSecondPrice(2_500_000, 3) })]);
  });

  it('without detection: voicemail is answered like a person', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['voicemail']! }));
    call.wait(10_000);
    expect(call.statuses()).toEqual(['started', 'ringing', 'answered', 'completed']);
  });
});

describe('the sandbox callee', () => {
  it('answers, and an answer while still starting rings first', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['ringsForever']! }));
    expect(call.send({ kind: 'callee', action: 'answer' }).outcome).toEqual({ ok: true });
    expect(call.statuses()).toEqual(['started', 'ringing', 'answered']);
    expect(call.state.timers.ringing_timer).toBeUndefined();
  });

  it('is busy, rejects, or sends voicemail while the call rings', () => {
    for (const [action, status] of [
      ['busy', 'busy'],
      ['reject', 'rejected'],
      ['machine', 'answered'],
    ] as const) {
      const call = new Driver(setupOf({ outcome: OUTCOMES['ringsForever']! }));
      call.wait(1000);
      call.send({ kind: 'callee', action });
      expect(call.state.status).toBe(status);
    }
  });

  it('refuses what does not fit the call: hanging up before answering, answering twice', () => {
    const call = new Driver(setupOf({ outcome: OUTCOMES['ringsForever']! }));
    expect(call.send({ kind: 'callee', action: 'hangup' }).outcome).toMatchObject({
      reason: 'invalid-state',
    });
    expect(call.send({ kind: 'dtmf', digits: '1' }).outcome).toMatchObject({ reason: 'invalid-state' });
    call.send({ kind: 'callee', action: 'answer' });
    expect(call.send({ kind: 'callee', action: 'answer' }).outcome).toMatchObject({
      reason: 'invalid-state',
    });
    expect(call.send({ kind: 'callee', action: 'hangup' }).outcome).toEqual({ ok: true });
    expect(call.webhooks().at(-1)).toMatchObject({ status: 'completed', disconnected_by: 'user' });
  });
});

describe('the NCCO', () => {
  const answered = (actions: Record<string, unknown>[], overrides = {}) => {
    const call = new Driver(setupOf({ ncco: ncco(...actions), ...overrides }));
    call.wait(3000);
    return call;
  };

  it('fetches it from the answer URL when answered, and ignores a late answer for an older one', () => {
    const call = new Driver(
      setupOf({ ncco: null, answer: { url: 'https://example.com/answer', method: 'GET' } }),
    );
    call.wait(3000);
    expect(call.effects.filter((e) => e.kind === 'fetch-ncco')).toEqual([
      { kind: 'fetch-ncco', generation: 1 },
    ]);
    expect(call.send({ kind: 'ncco', generation: 0, actions: ncco({ action: 'wait' }) }).outcome).toEqual({
      ok: true,
      consumed: false,
    });
    call.send({ kind: 'ncco', generation: 1, actions: ncco({ action: 'talk', text: 'one two' }) });
    call.wait(1000);
    expect(call.state.status).toBe('completed');
  });

  it('ends the call with the error event when the answer URL gives no valid NCCO', () => {
    const call = new Driver(
      setupOf({ ncco: null, answer: { url: 'https://example.com/answer', method: 'GET' } }),
    );
    call.wait(3000);
    call.send({
      kind: 'ncco-error',
      generation: 1,
      reason: 'Syntax error in NCCO. Invalid value type or action.',
    });
    const events = call.webhooks();
    expect(events.at(-2)).toEqual({
      reason: 'Syntax error in NCCO. Invalid value type or action.',
      conversation_uuid: call.state.setup.conversationUuid,
      timestamp: new Date(T0 + 3000).toISOString(),
    });
    expect(events.at(-1)).toMatchObject({ status: 'completed', duration: '0' });
  });

  it('input: posts the digits to the action eventUrl and goes on when it answers no NCCO', () => {
    const call = answered([
      {
        action: 'input',
        type: ['dtmf'],
        dtmf: { maxDigits: 3, submitOnHash: true },
        eventUrl: ['https://example.com/input'],
      },
      { action: 'talk', text: 'thanks' },
    ]);
    expect(call.send({ kind: 'dtmf', digits: '12#9' }).outcome).toEqual({ ok: true, consumed: true });
    const fetch = call.effects.filter((e) => e.kind === 'fetch-ncco').at(-1);
    expect(fetch).toMatchObject({
      request: {
        url: 'https://example.com/input',
        method: 'POST',
        body: {
          from: '447700900999',
          to: '447700900001',
          dtmf: { digits: '12', timed_out: false },
          uuid: call.state.setup.uuid,
          conversation_uuid: call.state.setup.conversationUuid,
          timestamp: new Date(T0 + 3000).toISOString(),
        },
      },
    });
    // The result goes to the eventUrl synchronously, not through the webhook queue.
    expect(call.webhooks('https://example.com/input')).toEqual([]);
    const generation = fetch?.kind === 'fetch-ncco' ? fetch.generation : -1;
    expect(call.send({ kind: 'ncco-error', generation, reason: 'answered no NCCO' }).outcome).toEqual({
      ok: true,
      consumed: true,
    });
    expect(call.state.status).toBe('answered');
    expect(call.state.program.index).toBe(1);
  });

  it("input: an NCCO answered by the eventUrl replaces the call's", () => {
    const call = answered([
      { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1 }, eventUrl: ['https://example.com/input'] },
      { action: 'talk', text: 'never said' },
    ]);
    call.send({ kind: 'dtmf', digits: '2' });
    const fetch = call.effects.filter((e) => e.kind === 'fetch-ncco').at(-1);
    const generation = fetch?.kind === 'fetch-ncco' ? fetch.generation : -1;
    call.send({ kind: 'ncco', generation, actions: [{ action: 'talk', text: 'you chose two' }] });
    const said = call.effects.filter((e) => e.kind === 'say').map((e) => (e.kind === 'say' ? e.text : ''));
    expect(said).toContain('you chose two');
    expect(said).not.toContain('never said');
  });

  it('input: times out with nothing heard, speech included', () => {
    const call = answered([{ action: 'input', type: ['dtmf', 'speech'], dtmf: { timeOut: 2 } }]);
    call.wait(9999);
    expect(call.state.status).toBe('answered');
    call.wait(1);
    expect(call.webhooks().at(-2)).toMatchObject({
      dtmf: { digits: '', timed_out: true },
      speech: { timeout_reason: 'start_timeout' },
    });
    expect(call.state.status).toBe('completed');
  });

  it('input: takes speech from the sandbox', () => {
    const call = answered([
      { action: 'input', type: ['speech'] },
      { action: 'wait', timeout: 1 },
    ]);
    expect(call.send({ kind: 'dtmf', digits: '1' }).outcome).toEqual({ ok: true, consumed: false });
    call.send({ kind: 'speech', text: 'sales please' });
    expect(call.webhooks().at(-1)).toMatchObject({
      speech: { results: [{ text: 'sales please', confidence: '0.95' }] },
    });
  });

  it('record: a background recording is reported when the call ends, a timed one when it stops', () => {
    const call = answered([
      { action: 'record', eventUrl: ['https://example.com/recording'] },
      { action: 'record', endOnSilence: 3, eventUrl: ['https://example.com/recording'] },
      { action: 'talk', text: 'bye' },
    ]);
    call.wait(6000);
    call.wait(1000);
    const recordings = call.webhooks('https://example.com/recording');
    expect(recordings).toHaveLength(2);
    expect(recordings[0]).toMatchObject({
      recording_uuid: 'id-2',
      recording_url: 'https://api.example.test/v1/files/id-2',
      size: recordingSize('mp3', 6000, 1),
      start_time: new Date(T0 + 3000).toISOString(),
    });
    expect(recordings[1]).toMatchObject({
      recording_uuid: 'id-1',
      end_time: new Date(T0 + 10_000).toISOString(),
    });
    expect(call.state.status).toBe('completed');
    // Each is kept for download, with what its file is made of.
    expect(call.effects.filter((e) => e.kind === 'recording').map((e) => e.recording)).toEqual([
      {
        uuid: 'id-2',
        callUuid: call.state.setup.uuid,
        conversationUuid: call.state.setup.conversationUuid,
        format: 'mp3',
        channels: 1,
        startedAt: T0 + 3000,
        endedAt: T0 + 9000,
      },
      expect.objectContaining({ uuid: 'id-1', startedAt: T0 + 3000, endedAt: T0 + 10_000 }),
    ]);
  });

  it('record: format and split channels shape the file', () => {
    const call = answered([
      { action: 'record', format: 'wav', split: 'conversation', channels: 3, timeOut: 3 },
      { action: 'record', format: 'wav', split: 'conversation', timeOut: 3 },
    ]);
    call.wait(6000);
    const stored = call.effects.flatMap((e) => (e.kind === 'recording' ? [e.recording] : []));
    expect(stored.map((r) => [r.format, r.channels])).toEqual([
      ['wav', 3],
      ['wav', 2],
    ]);
    expect(call.webhooks().find((e) => 'recording_url' in e)).toMatchObject({
      size: recordingSize('wav', 3000, 3),
    });
  });

  it('record: endOnKey stops on the key', () => {
    const call = answered([
      { action: 'record', endOnKey: '#' },
      { action: 'wait', timeout: 1 },
    ]);
    expect(call.send({ kind: 'dtmf', digits: '1' }).outcome).toEqual({ ok: true, consumed: false });
    expect(call.send({ kind: 'dtmf', digits: '#' }).outcome).toEqual({ ok: true, consumed: true });
    expect(call.webhooks().at(-1)).toHaveProperty('recording_url');
  });

  it('connect: places a leg, waits for it to end, then goes on', () => {
    const call = answered([
      { action: 'connect', endpoint: [{ type: 'phone', number: '447700900002' }] },
      { action: 'talk', text: 'bye' },
    ]);
    expect(call.effects.filter((e) => e.kind === 'connect')).toEqual([
      { kind: 'connect', uuid: 'id-1', action: expect.objectContaining({ action: 'connect' }) },
    ]);
    expect(call.state.children).toEqual(['id-1']);
    call.wait(60_000);
    expect(call.state.status).toBe('answered');
    call.send({ kind: 'child-ended', uuid: 'id-1' });
    expect(call.state.program.index).toBe(1);
    call.wait(1000);
    expect(call.state.status).toBe('completed');
  });

  it('connect: synchronous asks its eventUrl when the leg does not connect, and runs the NCCO it answers', () => {
    const call = answered([
      {
        action: 'connect',
        eventType: 'synchronous',
        eventUrl: ['https://example.com/failover'],
        endpoint: [{ type: 'phone', number: '447700900400' }],
        ringbackTone: 'https://example.com/ring.mp3',
      },
      { action: 'talk', text: 'never said' },
    ]);
    const busy = { status: 'busy', uuid: 'id-1' };
    call.send({ kind: 'child-ended', uuid: 'id-1', status: 'busy', event: busy });
    const fetch = call.effects.filter((e) => e.kind === 'fetch-ncco').at(-1);
    expect(fetch).toMatchObject({
      request: { url: 'https://example.com/failover', method: 'POST', body: busy },
    });
    const generation = fetch?.kind === 'fetch-ncco' ? fetch.generation : -1;
    call.send({ kind: 'ncco', generation, actions: ncco({ action: 'talk', text: 'nobody is free' }) });
    const said = call.effects.flatMap((e) => (e.kind === 'say' ? [e.text] : []));
    expect(said).toEqual(['nobody is free']);
    expect(call.state.timeline.map((t) => t.event)).toContain('ringback tone plays to the caller');
  });

  it('connect: synchronous goes on without asking when the connected leg was answered', () => {
    const call = answered([
      {
        action: 'connect',
        eventType: 'synchronous',
        eventUrl: ['https://example.com/failover'],
        endpoint: [{ type: 'phone', number: '447700900002' }],
      },
      { action: 'wait', timeout: 1 },
    ]);
    call.send({ kind: 'child-ended', uuid: 'id-1', status: 'completed', event: { status: 'completed' } });
    expect(call.effects.filter((e) => e.kind === 'fetch-ncco')).toEqual([]);
    expect(call.state.program.index).toBe(1);
  });

  it('connect: hangs up the connected leg when the call ends', () => {
    const call = answered([{ action: 'connect', endpoint: [{ type: 'phone', number: '447700900002' }] }]);
    call.send({ kind: 'hangup' });
    expect(call.effects.filter((e) => e.kind === 'hangup-leg')).toEqual([
      { kind: 'hangup-leg', uuid: 'id-1' },
    ]);
  });

  it('notify: sends its payload and goes on when the eventUrl answers no NCCO', () => {
    const call = answered([
      { action: 'notify', payload: { step: 'one' }, eventUrl: ['https://example.com/notify'] },
      { action: 'talk', text: 'hi' },
    ]);
    const fetch = call.effects.filter((e) => e.kind === 'fetch-ncco').at(-1);
    expect(fetch).toMatchObject({
      request: { url: 'https://example.com/notify', method: 'POST', body: { step: 'one' } },
    });
    const generation = fetch?.kind === 'fetch-ncco' ? fetch.generation : -1;
    call.send({ kind: 'ncco-error', generation, reason: 'answered HTTP 204' });
    expect(call.state.program.index).toBe(1);
  });

  it("notify: an NCCO answered by the eventUrl replaces the call's", () => {
    const call = answered([
      {
        action: 'notify',
        payload: { step: 'one' },
        eventUrl: ['https://example.com/notify'],
        eventMethod: 'GET',
      },
      { action: 'talk', text: 'you will never hear me' },
    ]);
    const fetch = call.effects.filter((e) => e.kind === 'fetch-ncco').at(-1);
    expect(fetch).toMatchObject({ request: { method: 'GET' } });
    const generation = fetch?.kind === 'fetch-ncco' ? fetch.generation : -1;
    call.send({ kind: 'ncco', generation, actions: ncco({ action: 'talk', text: 'loud and clear' }) });
    expect(call.effects.flatMap((e) => (e.kind === 'say' ? [e.text] : []))).toEqual(['loud and clear']);
  });

  it('talk with bargeIn: a key stops the talk and goes to the input that follows', () => {
    const call = answered([
      { action: 'talk', text: 'press one for sales or two for support, at any time', bargeIn: true },
      { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1 } },
      { action: 'wait', timeout: 1 },
    ]);
    expect(call.state.program.index).toBe(0);
    expect(call.send({ kind: 'dtmf', digits: '2' }).outcome).toEqual({ ok: true, consumed: true });
    expect(call.webhooks().at(-1)).toMatchObject({ dtmf: { digits: '2', timed_out: false } });
    expect(call.state.program.index).toBe(2);
  });

  it('talk without bargeIn plays to its end: keys meanwhile are not taken', () => {
    const call = answered([
      { action: 'talk', text: 'please listen to the whole message' },
      { action: 'input', type: ['dtmf'] },
    ]);
    expect(call.send({ kind: 'dtmf', digits: '2' }).outcome).toEqual({ ok: true, consumed: false });
    expect(call.state.program.index).toBe(0);
  });

  it('input asynchronous: goes on at once and sends each key as it is pressed', () => {
    const call = answered([
      { action: 'input', type: ['dtmf'], mode: 'asynchronous', eventUrl: ['https://example.com/keys'] },
      { action: 'conversation', name: 'room' },
    ]);
    expect(call.state.program.index).toBe(1);
    expect(call.send({ kind: 'dtmf', digits: '4p2' }).outcome).toEqual({ ok: true, consumed: true });
    expect(call.webhooks('https://example.com/keys').map((e) => e['dtmf'])).toEqual([
      { digits: '4', timed_out: false },
      { digits: '2', timed_out: false },
    ]);
  });

  it('a DTMF listener registered through the API hears keys until it is removed', () => {
    const call = answered([{ action: 'conversation', name: 'room' }]);
    const listener = { url: 'https://example.com/listen', method: 'POST' } as const;
    expect(call.send({ kind: 'dtmf-listener', target: listener }).outcome).toEqual({ ok: true });
    call.send({ kind: 'dtmf', digits: '9' });
    call.send({ kind: 'dtmf-listener', target: null });
    expect(call.send({ kind: 'dtmf', digits: '8' }).outcome).toEqual({ ok: true, consumed: false });
    expect(call.webhooks('https://example.com/listen')).toHaveLength(1);
    call.send({ kind: 'hangup' });
    expect(call.send({ kind: 'dtmf-listener', target: listener }).outcome).toMatchObject({ ok: false });
  });

  it('an inbound leg talks to its caller', () => {
    const call = new Driver(
      setupOf({
        direction: 'inbound',
        from: { type: 'phone', number: '447700900123' },
        to: { type: 'phone', number: '447700100200' },
      }),
    );
    call.wait(3000);
    expect(call.effects.filter((e) => e.kind === 'say')).toEqual([
      { kind: 'say', handset: '447700900123', text: 'Hello there, this is a test call' },
    ]);
  });

  it('conversation: joins the named conversation and leaves it when the call ends', () => {
    const call = answered([{ action: 'conversation', name: 'standup', endOnExit: true }]);
    expect(call.effects.filter((e) => e.kind === 'join-conversation')).toEqual([
      { kind: 'join-conversation', name: 'standup', endOnExit: true, startOnEnter: true },
    ]);
    call.send({ kind: 'hangup' });
    expect(call.effects.filter((e) => e.kind === 'leave-conversation')).toEqual([
      { kind: 'leave-conversation', name: 'standup' },
    ]);
  });

  it('conversation: a transfer leaves it; the end of it (endOnExit) moves the NCCO on', () => {
    const moved = answered([{ action: 'conversation', name: 'room' }]);
    moved.send({ kind: 'transfer', actions: ncco({ action: 'talk', text: 'elsewhere' }) });
    expect(moved.effects.filter((e) => e.kind === 'leave-conversation')).toHaveLength(1);

    const call = answered([
      { action: 'conversation', name: 'room', startOnEnter: false },
      { action: 'talk', text: 'the meeting is over' },
    ]);
    expect(call.send({ kind: 'conversation-started', name: 'other' }).outcome).toEqual({
      ok: true,
      consumed: false,
    });
    expect(call.send({ kind: 'conversation-started', name: 'room' }).outcome).toEqual({
      ok: true,
      consumed: true,
    });
    expect(call.send({ kind: 'conversation-ended', name: 'room' }).outcome).toEqual({
      ok: true,
      consumed: true,
    });
    expect(call.effects.filter((e) => e.kind === 'say').map((e) => (e.kind === 'say' ? e.text : ''))).toEqual(
      ['the meeting is over'],
    );
    // Ended by the conversation, the leg does not leave it again.
    call.wait(5000);
    expect(call.state.status).toBe('completed');
    expect(call.effects.filter((e) => e.kind === 'leave-conversation')).toEqual([]);
  });

  it('dtmfAnswer: the digits are sent when the phone answers', () => {
    const call = new Driver(setupOf({ to: { type: 'phone', number: '447700900001', dtmfAnswer: '1p2' } }));
    call.wait(3000);
    expect(call.state.timeline).toContainEqual(
      expect.objectContaining({ event: 'dtmfAnswer sent', detail: { digits: '1p2' } }),
    );
  });

  it('transfer: sends the transfer event and runs the new NCCO', () => {
    const call = answered([{ action: 'conversation', name: 'hold' }]);
    expect(call.send({ kind: 'transfer', actions: ncco({ action: 'talk', text: 'moved' }) }).outcome).toEqual(
      {
        ok: true,
      },
    );
    expect(call.webhooks().at(-1)).toMatchObject({
      conversation_uuid_from: call.state.setup.conversationUuid,
      uuid: call.state.setup.uuid,
    });
    call.wait(1000);
    expect(call.state.status).toBe('completed');
  });

  it('a leg placed by connect has no NCCO: it stays up until hung up', () => {
    const call = new Driver(setupOf({ ncco: null, parentUuid: 'parent-1' }));
    call.wait(60_000);
    expect(call.state.status).toBe('answered');
    call.send({ kind: 'hangup' });
    expect(call.effects.at(-1)).toEqual({
      kind: 'parent',
      parentUuid: 'parent-1',
      status: 'completed',
      event: expect.objectContaining({ status: 'completed', uuid: call.state.setup.uuid }),
    });
  });
});

describe('live-call controls', () => {
  it('mute, earmuff, talk and DTMF only on a live call', () => {
    const call = new Driver(setupOf({ ncco: ncco({ action: 'conversation', name: 'c' }) }));
    expect(call.send({ kind: 'mute' }).outcome).toMatchObject({ reason: 'invalid-state' });
    call.wait(3000);
    call.send({ kind: 'mute' });
    call.send({ kind: 'earmuff' });
    expect(call.state).toMatchObject({ muted: true, earmuffed: true });
    call.send({ kind: 'talk', text: 'Hello <break time="1s"/> world' });
    expect(call.effects.at(-1)).toEqual({ kind: 'say', handset: '447700900001', text: 'Hello world' });
    expect(call.send({ kind: 'play-dtmf', digits: '12' }).outcome).toEqual({ ok: true });
  });
});

describe('durations and prices', () => {
  it('talks at 150 words a minute, at least a second', () => {
    expect(talkMs('Hi')).toBe(1000);
    expect(talkMs('one two three four five')).toBe(2000);
  });

  it("bills per second at the per-minute rate, like the vendor's example", () => {
    expect(perSecondPrice(450_000, 2)).toBe(15_000);
    expect(perSecondPrice(2_500_000, 60)).toBe(2_500_000);
    expect(perSecondPrice(1, 29)).toBe(0);
    expect(perSecondPrice(1, 30)).toBe(1);
  });
});
