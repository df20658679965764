import { describe, expect, it } from 'vitest';
import {
  advance,
  type CheckOutcome,
  check,
  control,
  create,
  latestEnd,
  nextDeadline,
  type Plan,
  type Randomness,
  type RequestState,
  WORKFLOWS,
} from './machine';

/** Codes '1001', '1002', … and event ids 'E1', 'E2', … in the order they are asked for. */
function scripted(): Randomness {
  let codes = 1000;
  let ids = 0;
  return { code: () => String(++codes), eventId: () => `E${++ids}` };
}

const S = 1000;

function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    workflow: WORKFLOWS[1],
    pinExpiryMs: 300 * S,
    nextEventWaitMs: 300 * S,
    codeLength: 4,
    ...overrides,
  };
}

function started(p: Plan = plan(), random = scripted()) {
  return { state: create(p, 0, random).state, random };
}

/** Codes of the attempts made by `at`. */
function codesBy(state: RequestState, at: number, random: Randomness): string[] {
  return advance(state, at, random).state.events.map((e) => e.code);
}

describe('creating a request', () => {
  it('sends the first attempt at once with a new code and waits for the next', () => {
    const { state, effects } = create(plan(), 0, scripted());
    expect(state.status).toBe('IN PROGRESS');
    expect(state.events).toEqual([{ id: 'E1', type: 'sms', at: 0, code: '1001' }]);
    expect(state.nextEventAt).toBe(300 * S);
    expect(state.codeExpiresAt).toBe(300 * S);
    expect(effects).toEqual([{ kind: 'deliver', event: state.events[0] }]);
  });

  it("uses the account's pin_code for every attempt", () => {
    const { state, random } = started(
      plan({ pinCode: 'ab12', pinExpiryMs: 60 * S, nextEventWaitMs: 60 * S }),
    );
    expect(codesBy(state, 200 * S, random)).toEqual(['ab12', 'ab12', 'ab12']);
  });
});

describe('timings (the vendor examples for workflow 1)', () => {
  it('keeps one code for all three attempts when it outlives them (360 s, 120 s)', () => {
    const { state, random } = started(plan({ pinExpiryMs: 360 * S, nextEventWaitMs: 120 * S }));
    expect(codesBy(state, 240 * S, random)).toEqual(['1001', '1001', '1001']);
  });

  it('makes a new code for the third attempt when the first has run out (240 s, 120 s)', () => {
    const { state, random } = started(plan({ pinExpiryMs: 240 * S, nextEventWaitMs: 120 * S }));
    expect(codesBy(state, 240 * S, random)).toEqual(['1001', '1001', '1002']);
  });

  it('makes a new code for every attempt when expiry equals the wait (120 s, 120 s)', () => {
    const { state, random } = started(plan({ pinExpiryMs: 120 * S, nextEventWaitMs: 120 * S }));
    expect(codesBy(state, 240 * S, random)).toEqual(['1001', '1002', '1003']);
  });

  it('follows each workflow, one attempt per wait', () => {
    for (const workflow of Object.values(WORKFLOWS)) {
      const { state, random } = started(plan({ workflow }));
      const after = advance(state, 10_000 * S, random).state;
      expect(after.events.map((e) => e.type)).toEqual(workflow);
      expect(after.events.map((e) => e.at)).toEqual(workflow.map((_, i) => i * 300 * S));
    }
  });
});

describe('expiry', () => {
  it('expires when the last attempt’s code runs out, at that moment', () => {
    const { state, random } = started(plan({ workflow: WORKFLOWS[6], pinExpiryMs: 60 * S }));
    expect(nextDeadline(state)).toBe(60 * S);
    expect(advance(state, 60 * S - 1, random).state.status).toBe('IN PROGRESS');
    const { state: expired, effects } = advance(state, 61 * S, random);
    expect(expired.status).toBe('EXPIRED');
    expect(expired.finalizedAt).toBe(60 * S);
    expect(effects).toEqual([{ kind: 'finalized', status: 'EXPIRED', at: 60 * S }]);
    expect(nextDeadline(expired)).toBeNull();
  });

  it('is in progress without a valid code between a short-lived code and the next attempt', () => {
    const { state, random } = started(plan({ workflow: WORKFLOWS[4], pinExpiryMs: 60 * S }));
    const between = check(state, '1001', 100 * S, random);
    expect(between.result).toEqual({ outcome: 'mismatch' });
    expect(between.state.status).toBe('IN PROGRESS');
    expect(advance(state, 300 * S, random).state.code).toBe('1002');
    expect(latestEnd(state.plan, 0)).toBe(360 * S);
    expect(advance(state, 360 * S, random).state.status).toBe('EXPIRED');
  });
});

describe('checks', () => {
  it('succeeds on the right code and answers the attempt that carried it', () => {
    const { state, random } = started();
    const { state: after, result, effects } = check(state, '1001', 10 * S, random);
    expect(result).toEqual({ outcome: 'match', eventId: 'E1' });
    expect(after.status).toBe('SUCCESS');
    expect(after.checks).toEqual([{ at: 10 * S, code: '1001', status: 'VALID' }]);
    expect(effects).toEqual([{ kind: 'finalized', status: 'SUCCESS', at: 10 * S }]);
  });

  it('allows three wrong codes; the fourth fails the request and later checks are refused', () => {
    let { state, random } = started();
    const outcomes: CheckOutcome['outcome'][] = [];
    for (const code of ['0000', '0001', '0002', '0003', '1001']) {
      const t = check(state, code, 10 * S, random);
      outcomes.push(t.result.outcome);
      state = t.state;
    }
    expect(outcomes).toEqual(['mismatch', 'mismatch', 'mismatch', 'too-many', 'too-many']);
    expect(state.status).toBe('FAILED');
    expect(state.checks).toHaveLength(4);
  });

  it('accepts the right code after three wrong ones', () => {
    let { state, random } = started();
    for (const code of ['0000', '0001', '0002']) state = check(state, code, S, random).state;
    expect(check(state, '1001', S, random).result.outcome).toBe('match');
  });

  it('gives a new code a new allowance of three', () => {
    let { state, random } = started();
    for (const code of ['0000', '0001', '0002']) state = check(state, code, S, random).state;
    state = control(state, 'trigger_next_event', 2 * S, random).state;
    expect(state.wrongChecks).toBe(0);
    for (const code of ['0000', '0001']) state = check(state, code, 3 * S, random).state;
    // The old code is no longer valid: it is the third wrong one.
    expect(check(state, '1001', 4 * S, random).result.outcome).toBe('mismatch');
    expect(check(state, '1002', 4 * S, random).result.outcome).toBe('match');
  });

  it('refuses a check once the request is over', () => {
    const { state, random } = started(plan({ workflow: WORKFLOWS[6] }));
    expect(check(state, '1001', 400 * S, random).result).toEqual({ outcome: 'inactive' });
  });
});

describe('control', () => {
  it('cancels only from 30 s on and before the second attempt', () => {
    const { state, random } = started();
    expect(control(state, 'cancel', 29 * S, random).result.outcome).toBe('too-early');
    const cancelled = control(state, 'cancel', 30 * S, random);
    expect(cancelled.result.outcome).toBe('done');
    expect(cancelled.state.status).toBe('CANCELLED');
    expect(control(state, 'cancel', 300 * S, random).result.outcome).toBe('too-late');
    expect(control(cancelled.state, 'cancel', 31 * S, random).result.outcome).toBe('inactive');
  });

  it('triggers the next attempt now with a new code, until none is left', () => {
    let { state, random } = started();
    const first = control(state, 'trigger_next_event', 5 * S, random);
    expect(first.result.outcome).toBe('done');
    expect(first.state.events.at(-1)).toEqual({ id: 'E2', type: 'tts', at: 5 * S, code: '1002' });
    expect(first.state.nextEventAt).toBe(305 * S);
    state = control(first.state, 'trigger_next_event', 6 * S, random).state;
    expect(state.nextEventAt).toBeNull();
    expect(control(state, 'trigger_next_event', 7 * S, random).result.outcome).toBe('no-more-events');
  });
});
