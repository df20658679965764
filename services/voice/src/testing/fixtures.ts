import type { CallOutcome } from '@comms/network';
import { type CallInput, type CallSetup, type CallState, type StepResult, startCall, step } from '../machine';
import type { NccoAction } from '../ncco';

/** The network plans the tests use, named for what the callee does. */
export const OUTCOMES: Record<string, CallOutcome> = {
  answers: { behaviour: 'answer', ringAfterMs: 1000, actAfterMs: 2000, hangupAfterMs: null, detail: null },
  hangsUp: { behaviour: 'answer', ringAfterMs: 1000, actAfterMs: 2000, hangupAfterMs: 5000, detail: null },
  busy: { behaviour: 'busy', ringAfterMs: null, actAfterMs: 1000, hangupAfterMs: null, detail: 'busy' },
  declines: {
    behaviour: 'reject',
    ringAfterMs: 1000,
    actAfterMs: 2000,
    hangupAfterMs: null,
    detail: 'declined',
  },
  ringsForever: {
    behaviour: 'no-answer',
    ringAfterMs: 1000,
    actAfterMs: null,
    hangupAfterMs: null,
    detail: null,
  },
  voicemail: { behaviour: 'machine', ringAfterMs: 1000, actAfterMs: 2000, hangupAfterMs: null, detail: null },
  unreachable: {
    behaviour: 'unreachable',
    ringAfterMs: null,
    actAfterMs: 2000,
    hangupAfterMs: null,
    detail: 'unavailable',
  },
  fails: {
    behaviour: 'fail',
    ringAfterMs: null,
    actAfterMs: 1000,
    hangupAfterMs: null,
    detail: 'cannot_route',
  },
};

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A leg to a phone, with an NCCO that talks for a while, a 60 s ringing timer and 0.0250 EUR/min. */
export function setupOf(overrides: Partial<CallSetup> = {}): CallSetup {
  return {
    uuid: '11111111-1111-4111-8111-111111111111',
    conversationUuid: 'CON-22222222-2222-4222-8222-222222222222',
    direction: 'outbound',
    to: { type: 'phone', number: '447700900001' },
    from: { type: 'phone', number: '447700900999' },
    apiKey: 'abcd1234',
    applicationId: 'app-1',
    event: { url: 'https://example.com/event', method: 'POST' },
    answer: null,
    ncco: [{ action: 'talk', text: 'Hello there, this is a test call' } as NccoAction],
    parentUuid: null,
    machineDetection: null,
    lengthTimerMs: 7_200_000,
    ringingTimerMs: 60_000,
    outcome: OUTCOMES['answers']!,
    rate: 2_500_000,
    network: { code: '23415', name: 'Vodafone', country: 'GB', countryName: 'United Kingdom' },
    product: 'VOICE-CALL',
    baseUrl: 'https://api.example.test',
    ...overrides,
  };
}

/** Drives a leg through inputs and time, keeping every effect; ids are a counter. */
export class Driver {
  state: CallState;
  effects: StepResult['effects'] = [];
  now: number;
  private ids = 0;

  constructor(setup: CallSetup, now = T0) {
    this.now = now;
    const result = startCall(setup, this.ctx());
    this.state = result.state;
    this.effects.push(...result.effects);
  }

  private ctx() {
    return { now: this.now, newId: () => `id-${++this.ids}` };
  }

  send(input: CallInput): StepResult {
    const result = step(this.state, input, this.ctx());
    this.state = result.state;
    this.effects.push(...result.effects);
    return result;
  }

  /** Lets `ms` pass, firing timers as an alarm would at the end of it. */
  wait(ms: number): StepResult {
    this.now += ms;
    return this.send({ kind: 'tick' });
  }

  statuses(): string[] {
    return this.state.history.map((h) => h.status);
  }

  /** Bodies of the webhooks sent to a URL (the call's event URL by default). */
  webhooks(url = 'https://example.com/event') {
    return this.effects.flatMap((e) => (e.kind === 'webhook' && e.target.url === url ? [e.body] : []));
  }

  charges() {
    return this.effects.filter((e) => e.kind === 'charge');
  }
}
