import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CallInput, type CallState, isLive, TRANSITIONS } from './machine';
import { type NccoAction, parseNcco } from './ncco';
import { Driver, OUTCOMES, setupOf } from './testing/fixtures';

/** NCCOs that exercise every action the machine runs. */
const NCCOS: Record<string, unknown>[][] = [
  [{ action: 'talk', text: 'Hello there' }],
  [{ action: 'talk', text: 'Hold music', loop: 0 }],
  [
    { action: 'stream', streamUrl: ['https://example.com/a.mp3'], loop: 2 },
    { action: 'wait', timeout: 2 },
  ],
  [
    { action: 'input', type: ['dtmf', 'speech'], eventUrl: ['https://example.com/input'] },
    { action: 'talk', text: 'Thanks' },
  ],
  [
    { action: 'record', eventUrl: ['https://example.com/rec'] },
    { action: 'conversation', name: 'room', record: true },
  ],
  [
    { action: 'record', endOnKey: '#', timeOut: 10 },
    { action: 'notify', payload: { a: 1 }, eventUrl: ['https://example.com/n'] },
  ],
  [
    { action: 'connect', endpoint: [{ type: 'phone', number: '447700900002' }] },
    { action: 'talk', text: 'Bye' },
  ],
  [
    { action: 'talk', text: 'Press a key whenever you like', bargeIn: true },
    { action: 'input', type: ['dtmf'], mode: 'asynchronous', eventUrl: ['https://example.com/keys'] },
    {
      action: 'connect',
      eventType: 'synchronous',
      eventUrl: ['https://example.com/failover'],
      endpoint: [{ type: 'phone', number: '447700900400' }],
    },
  ],
];

const ncco = (i: number) => parseNccoOrThrow(NCCOS[i]!);

function parseNccoOrThrow(value: unknown): NccoAction[] {
  const parsed = parseNcco(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.actions;
}

const setups = fc.record({
  outcome: fc.constantFrom(...Object.keys(OUTCOMES)),
  machineDetection: fc.constantFrom(null, 'continue' as const, 'hangup' as const),
  ringingTimerMs: fc.integer({ min: 1, max: 120 }).map((s) => s * 1000),
  lengthTimerMs: fc.integer({ min: 1, max: 600 }).map((s) => s * 1000),
  nccoIndex: fc.nat(NCCOS.length - 1),
  viaAnswerUrl: fc.boolean(),
});

/** A step of the property: time passing, the sandbox callee, the API, or an answer URL's reply. */
type Command =
  | { kind: 'wait'; ms: number }
  | { kind: 'input'; input: CallInput }
  | { kind: 'answer-url'; ok: boolean; stale: boolean }
  | { kind: 'child-ends'; status: 'completed' | 'busy' | 'timeout' };

const commands: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
  fc.record({
    kind: fc.constant('input' as const),
    input: fc.oneof(
      fc.constantFrom<CallInput>(
        { kind: 'callee', action: 'answer' },
        { kind: 'callee', action: 'busy' },
        { kind: 'callee', action: 'reject' },
        { kind: 'callee', action: 'machine' },
        { kind: 'callee', action: 'hangup' },
        { kind: 'hangup' },
        { kind: 'mute' },
        { kind: 'earmuff' },
        { kind: 'talk', text: 'live words' },
        { kind: 'play-dtmf', digits: '9' },
        { kind: 'transfer', actions: [{ action: 'talk', text: 'moved' }] as NccoAction[] },
        { kind: 'dtmf-listener', target: { url: 'https://example.com/listen', method: 'POST' } },
        { kind: 'dtmf-listener', target: null },
        { kind: 'conversation-started', name: 'room' },
        { kind: 'conversation-ended', name: 'room' },
      ),
      fc.stringMatching(/^[0-9#*]{1,6}$/).map((digits): CallInput => ({ kind: 'dtmf', digits })),
      fc.constantFrom('yes', 'sales').map((text): CallInput => ({ kind: 'speech', text })),
    ),
  }),
  fc.record({ kind: fc.constant('answer-url' as const), ok: fc.boolean(), stale: fc.boolean() }),
  fc.record({
    kind: fc.constant('child-ends' as const),
    status: fc.constantFrom('completed' as const, 'busy' as const, 'timeout' as const),
  }),
);

function run(call: Driver, command: Command) {
  switch (command.kind) {
    case 'wait':
      return call.wait(command.ms);
    case 'input':
      return call.send(command.input);
    case 'answer-url': {
      const generation = call.state.program.generation - (command.stale ? 1 : 0);
      return call.send(
        command.ok
          ? { kind: 'ncco', generation, actions: ncco(0) }
          : { kind: 'ncco-error', generation, reason: 'Syntax error in NCCO. Invalid value type or action.' },
      );
    }
    case 'child-ends': {
      const child = call.state.children[0] ?? 'unknown-leg';
      return call.send({
        kind: 'child-ended',
        uuid: child,
        status: command.status,
        event: { uuid: child, status: command.status },
      });
    }
  }
}

/** Whether a status history is a path of the state machine, `machine` where detection allows it. */
function validPath(state: CallState): boolean {
  const statuses = state.history.map((h) => h.status);
  if (statuses[0] !== 'started') return false;
  for (let i = 1; i < statuses.length; i++) {
    const [from, to] = [statuses[i - 1]!, statuses[i]!];
    if (!TRANSITIONS[from].includes(to)) return false;
    if (to === 'machine' && from === 'ringing' && state.setup.machineDetection !== 'hangup') return false;
    if (to === 'machine' && from === 'answered' && state.setup.machineDetection !== 'continue') return false;
  }
  return state.history.every((h, i) => i === 0 || h.at >= state.history[i - 1]!.at);
}

function checkInvariants(call: Driver) {
  const s = call.state;
  expect(validPath(s)).toBe(true);
  // The status events say exactly what the history says, in the same order.
  const events = call.webhooks().filter((e) => typeof e['status'] === 'string' && e['uuid'] === s.setup.uuid);
  expect(events.map((e) => e['status'])).toEqual(s.history.map((h) => h.status));
  const charges = call.charges();
  if (s.endedAt === null) {
    expect(charges).toHaveLength(0);
    // A call that is not over always has a timer that will end it, or move it towards an end.
    if (s.status === 'started') expect(s.timers.ring ?? s.timers.act).toBeDefined();
    if (s.status === 'ringing') expect(s.timers.ringing_timer).toBeDefined();
    if (isLive(s)) expect(s.timers.length_timer).toBeDefined();
  } else {
    expect(Object.keys(s.timers)).toHaveLength(0);
    expect(charges).toHaveLength(1);
    const charge = charges[0]!;
    if (charge.kind !== 'charge') throw new Error('not a charge');
    if (s.status === 'completed') expect(charge.amount).toBe(s.price);
    else expect(charge.amount).toBe(0);
  }
}

describe('the call state machine under random steering and time', () => {
  it('only walks valid paths, and charges every call that ends exactly once', () => {
    fc.assert(
      fc.property(setups, fc.array(commands, { maxLength: 40 }), (init, script) => {
        const call = new Driver(
          setupOf({
            outcome: OUTCOMES[init.outcome]!,
            machineDetection: init.machineDetection,
            ringingTimerMs: init.ringingTimerMs,
            lengthTimerMs: init.lengthTimerMs,
            ncco: init.viaAnswerUrl ? null : ncco(init.nccoIndex),
            answer: init.viaAnswerUrl ? { url: 'https://example.com/answer', method: 'GET' } : null,
          }),
        );
        checkInvariants(call);
        let endedWith: string | null = null;
        for (const command of script) {
          const effects = run(call, command).effects;
          if (endedWith !== null) {
            // Nothing happens to a call that is over: no status, no webhook, no second charge.
            expect(call.state.status).toBe(endedWith);
            expect(effects.filter((e) => e.kind !== 'hangup-leg')).toEqual([]);
          }
          checkInvariants(call);
          if (call.state.endedAt !== null) endedWith = call.state.status;
        }
        // Whatever happened, time ends every call: ringing_timer or length_timer at the latest.
        call.wait(200_000);
        call.wait(600_000);
        expect(call.state.endedAt).not.toBeNull();
        checkInvariants(call);
      }),
      { numRuns: 500 },
    );
  });
});

describe('NCCO validation', () => {
  it('never throws, whatever JSON an answer URL returns', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseNcco(value);
        if (!parsed.ok) expect(parsed.reason).toMatch(/^Syntax error in NCCO/);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on action-shaped objects, and every NCCO it accepts runs to the end of a call', () => {
    const field = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom('https://example.com/x', ['https://example.com/x'], 0, -1, 7201),
    );
    const actionish = fc.record(
      {
        action: fc.constantFrom(
          'talk',
          'stream',
          'input',
          'record',
          'connect',
          'conversation',
          'notify',
          'wait',
          'dance',
        ),
        text: field,
        streamUrl: field,
        eventUrl: field,
        endpoint: fc.oneof(field, fc.constant([{ type: 'phone', number: '447700900002' }])),
        name: field,
        payload: field,
        loop: field,
        timeout: field,
        type: fc.oneof(field, fc.constant(['dtmf'])),
      },
      { requiredKeys: ['action'] },
    );
    fc.assert(
      fc.property(fc.array(actionish, { minLength: 1, maxLength: 5 }), (value) => {
        const parsed = parseNcco(value);
        if (!parsed.ok) return;
        const call = new Driver(setupOf({ ncco: parsed.actions }));
        call.wait(3000);
        call.send({ kind: 'dtmf', digits: '1#' });
        call.wait(8_000_000);
        expect(call.state.endedAt).not.toBeNull();
        checkInvariants(call);
      }),
      { numRuns: 500 },
    );
  });
});
