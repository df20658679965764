/**
 * One call leg as a pure state machine: its status (spec 3.2), its timers, and the NCCO it runs.
 * Every transition takes `now` and answers the new state plus the effects the Durable Object must
 * carry out (webhooks, an answer URL to fetch, words for the callee's handset, legs to connect, the
 * charge). Nothing here does I/O or reads the clock, so the property test drives it in plain Node.
 */
import { type Amount, formatAmount, type JsonObject } from '@comms/core';
import type { CallOutcome } from '@comms/network';
import { type CallEndpoint, endpointAddress } from './endpoints';
import {
  type CallStatus,
  type CallSummary,
  type DisconnectedBy,
  errorEvent,
  type InputResult,
  inputEvent,
  isoTime,
  type LegIdentity,
  recordEvent,
  statusEvent,
  transferEvent,
} from './events';
import type { ConnectAction, InputAction, NccoAction, RecordAction } from './ncco';
import type { RecordingFormat } from './recording-audio';

export type { CallStatus } from './events';

/** A webhook target: the first URL of an `event_url`/`eventUrl` list and its method. */
export interface Target {
  url: string;
  method: 'GET' | 'POST';
}

/** Everything fixed when a leg is placed. */
export interface CallSetup extends LegIdentity {
  apiKey: string;
  applicationId: string;
  event: Target;
  answer: Target | null;
  /** The inline NCCO; null when the answer URL gives it, or for a leg a `connect` placed. */
  ncco: NccoAction[] | null;
  /** The leg whose `connect` placed this one; it has no NCCO of its own. */
  parentUuid: string | null;
  machineDetection: 'continue' | 'hangup' | null;
  lengthTimerMs: number;
  ringingTimerMs: number;
  /** What the simulated network's callee does. */
  outcome: CallOutcome;
  /** Price per minute, in 10^-8 EUR. */
  rate: Amount;
  network: { code: string; name: string | null; country: string | null; countryName: string | null };
  product: 'VOICE-CALL' | 'WEBSOCKET-CALL';
  /** Origin the API was called on, for recording URLs. */
  baseUrl: string;
}

export type TimerName = 'ring' | 'act' | 'callee_hangup' | 'ringing_timer' | 'length_timer' | 'action';

/** A recording in progress. */
export interface Recording {
  uuid: string;
  startedAt: number;
  target: Target | null;
  format: RecordingFormat;
  channels: number;
}

/** A finished recording, kept so that its URL can be downloaded (`GET /v1/files/:uuid`). */
export interface StoredRecording {
  uuid: string;
  callUuid: string;
  conversationUuid: string;
  format: RecordingFormat;
  channels: number;
  startedAt: number;
  endedAt: number;
}

/** What the current NCCO action waits for. */
export type Waiting =
  /**
   * An NCCO from the answer URL, or the reply of a URL that answers synchronously (`reply`: an
   * `input`'s or `notify`'s `eventUrl`, a synchronous `connect`'s); `generation` tells a late answer
   * from the current one.
   */
  | { kind: 'fetch'; generation: number; reply?: ReplySource }
  /** A timed action (`talk`, `stream`, `wait`): the `action` timer. */
  | { kind: 'timer' }
  /** An action that runs until the call ends (`talk`/`stream` with `loop` 0, `conversation`, a connected leg). */
  | { kind: 'hold'; reason: string; conversation?: string }
  | {
      kind: 'input';
      dtmf: boolean;
      speech: boolean;
      maxDigits: number;
      submitOnHash: boolean;
      target: Target | null;
    }
  | { kind: 'record'; recording: Recording; endOnKey: string | null }
  /** A connected leg; `synchronous` is the `eventUrl` a `connect` with `eventType: synchronous` asks. */
  | { kind: 'connect'; child: string; synchronous?: Target };

/** Whose reply a synchronous fetch waits for. */
export type ReplySource = 'input' | 'notify' | 'connect';

export interface Program {
  actions: NccoAction[];
  /** The running action; -1 before the first. */
  index: number;
  generation: number;
  waiting: Waiting | null;
  /** Recordings without a stop condition: they run until the call ends. */
  recordings: Recording[];
}

/** One line of what happened to the leg, for the sandbox's view of a call. */
export interface TimelineEntry {
  at: string;
  event: string;
  detail?: JsonObject;
}

export interface CallState {
  setup: CallSetup;
  status: CallStatus;
  /** Every status the leg has had, in order, with its time. */
  history: { status: CallStatus; at: number }[];
  createdAt: number;
  ringingAt: number | null;
  answeredAt: number | null;
  endedAt: number | null;
  disconnectedBy: DisconnectedBy | null;
  detail: string | null;
  timers: Partial<Record<TimerName, number>>;
  program: Program;
  /** Legs this one's `connect` actions placed that are still up. */
  children: string[];
  muted: boolean;
  earmuffed: boolean;
  /** Where each key the callee presses is sent as it is pressed (`PUT /v1/calls/:uuid/input/dtmf`, asynchronous `input`). */
  dtmfListener?: Target | null;
  charged: boolean;
  durationSeconds: number | null;
  price: Amount | null;
  timeline: TimelineEntry[];
}

/** What the Durable Object must do after a transition, in order. */
export type CallEffect =
  | { kind: 'webhook'; target: Target; body: JsonObject }
  /** Fetch an NCCO: the answer URL's, or with `request` an input result's reply from its `eventUrl`. */
  | {
      kind: 'fetch-ncco';
      generation: number;
      request?: { url: string; method: 'GET' | 'POST'; body: JsonObject };
    }
  /** Words for a phone's inbox: the handset the leg talks to. */
  | { kind: 'say'; handset: string; text: string }
  | { kind: 'connect'; uuid: string; action: ConnectAction }
  | { kind: 'hangup-leg'; uuid: string }
  | { kind: 'charge'; amount: Amount; record: JsonObject }
  | { kind: 'parent'; parentUuid: string; status: CallStatus; event: JsonObject }
  | { kind: 'recording'; recording: StoredRecording }
  /** The leg enters or leaves a named conversation (its members, moderator start and end). */
  | { kind: 'join-conversation'; name: string; endOnExit: boolean; startOnEnter: boolean }
  | { kind: 'leave-conversation'; name: string };

/** What steers a leg: time, the callee (sandbox), the API, the answer URL, connected legs. */
export type CallInput =
  | { kind: 'tick' }
  | { kind: 'callee'; action: 'answer' | 'busy' | 'reject' | 'machine' | 'hangup' }
  | { kind: 'dtmf'; digits: string }
  | { kind: 'speech'; text: string }
  | { kind: 'hangup' }
  | { kind: 'mute' | 'unmute' | 'earmuff' | 'unearmuff' }
  | { kind: 'transfer'; actions: NccoAction[] }
  | { kind: 'ncco'; generation: number; actions: NccoAction[] }
  | { kind: 'ncco-error'; generation: number; reason: string }
  /** A leg this one connected ended with `status`; `event` is its final status event. */
  | { kind: 'child-ended'; uuid: string; status?: CallStatus; event?: JsonObject }
  | { kind: 'dtmf-listener'; target: Target | null }
  /** The named conversation the leg waits in started (a moderator joined) or ended (`endOnExit`). */
  | { kind: 'conversation-started' | 'conversation-ended'; name: string }
  | { kind: 'talk'; text: string }
  | { kind: 'stop-talk' | 'stop-stream' }
  | { kind: 'stream'; url: string }
  | { kind: 'play-dtmf'; digits: string };

export type StepOutcome =
  | { ok: true; consumed?: boolean }
  | { ok: false; reason: 'invalid-state'; detail: string };

export interface StepContext {
  now: number;
  /** A fresh id (recordings, connected legs); tests pass a counter. */
  newId: () => string;
}

export interface StepResult {
  state: CallState;
  effects: CallEffect[];
  outcome: StepOutcome;
}

/** The statuses a call may move to from each status (the property test checks every path against it). */
export const TRANSITIONS: Readonly<Record<CallStatus, readonly CallStatus[]>> = {
  started: ['ringing', 'busy', 'cancelled', 'failed', 'rejected', 'unanswered'],
  ringing: ['answered', 'machine', 'busy', 'cancelled', 'failed', 'rejected', 'timeout', 'unanswered'],
  answered: ['machine', 'completed'],
  machine: ['completed'],
  completed: [],
  busy: [],
  cancelled: [],
  failed: [],
  rejected: [],
  timeout: [],
  unanswered: [],
};

/** Simulated durations: spoken text at 150 words a minute, an audio stream, an `input`'s defaults. */
const MS_PER_WORD = 400;
const MIN_TALK_MS = 1000;
export const STREAM_MS = 3000;
const WAIT_DEFAULT_S = 10;
const DTMF_TIMEOUT_DEFAULT_S = 3;
const SPEECH_START_TIMEOUT_DEFAULT_S = 10;
const MAX_DIGITS_DEFAULT = 4;
/** A `record` with `endOnSilence` hears the callee speak this long before the silence starts. */
const RECORD_SPEECH_MS = 3000;
const RECORD_TIMEOUT_DEFAULT_S = 7200;
const TIMELINE_LIMIT = 200;

/** Whether the leg is connected and not over: answered, or answered by a machine with `continue`. */
export function isLive(state: CallState): boolean {
  return state.endedAt === null && (state.status === 'answered' || state.status === 'machine');
}

/** The earliest pending timer, or null. */
export function nextTimer(state: CallState): number | null {
  const times = Object.values(state.timers).filter((t): t is number => typeof t === 'number');
  return times.length ? Math.min(...times) : null;
}

/**
 * Places a leg: status `started`, and the network's first step scheduled.
 *
 * @example
 * const { state, effects } = startCall(setup, { now: Date.now(), newId: crypto.randomUUID });
 */
export function startCall(setup: CallSetup, ctx: StepContext): StepResult {
  const state: CallState = {
    setup,
    status: 'started',
    history: [{ status: 'started', at: ctx.now }],
    createdAt: ctx.now,
    ringingAt: null,
    answeredAt: null,
    endedAt: null,
    disconnectedBy: null,
    detail: null,
    timers: {},
    program: { actions: [], index: -1, generation: 0, waiting: null, recordings: [] },
    children: [],
    muted: false,
    earmuffed: false,
    charged: false,
    durationSeconds: null,
    price: null,
    timeline: [],
  };
  const run = new Run(state, ctx);
  run.log('started', { to: endpointAddress(setup.to) });
  run.emitStatus('started', ctx.now);
  const { outcome } = setup;
  if (outcome.ringAfterMs !== null) state.timers.ring = ctx.now + outcome.ringAfterMs;
  else if (outcome.actAfterMs !== null) state.timers.act = ctx.now + outcome.actAfterMs;
  return run.result({ ok: true });
}

/**
 * Applies one input to a leg. The state given is not changed.
 *
 * @example
 * step(state, { kind: 'callee', action: 'busy' }, { now, newId }).state.status // 'busy'
 */
export function step(previous: CallState, input: CallInput, ctx: StepContext): StepResult {
  const run = new Run(structuredClone(previous), ctx);
  return run.result(run.apply(input));
}

/** One transition in progress: the draft state and the effects gathered so far. */
class Run {
  readonly effects: CallEffect[] = [];

  constructor(
    readonly state: CallState,
    readonly ctx: StepContext,
  ) {}

  result(outcome: StepOutcome): StepResult {
    return { state: this.state, effects: this.effects, outcome };
  }

  apply(input: CallInput): StepOutcome {
    const now = this.ctx.now;
    switch (input.kind) {
      case 'tick':
        this.fireDueTimers(now);
        return { ok: true };
      case 'callee':
        return this.callee(input.action, now);
      case 'dtmf':
        return this.dtmf(input.digits, now);
      case 'speech':
        return this.speech(input.text, now);
      case 'hangup':
        return this.apiHangup(now);
      case 'mute':
      case 'unmute':
      case 'earmuff':
      case 'unearmuff':
        return this.audioControl(input.kind);
      case 'transfer':
        return this.transfer(input.actions, now);
      case 'ncco':
        return this.nccoLoaded(input.generation, input.actions, now);
      case 'ncco-error':
        return this.nccoFailed(input.generation, input.reason, now);
      case 'child-ended':
        return this.childEnded(input, now);
      case 'dtmf-listener':
        return this.dtmfListener(input.target);
      case 'conversation-started':
      case 'conversation-ended':
        return this.conversationChanged(input.kind, input.name, now);
      case 'talk':
      case 'stream':
      case 'play-dtmf':
      case 'stop-talk':
      case 'stop-stream':
        return this.liveAudio(input);
    }
  }

  // ---- bookkeeping -----------------------------------------------------------------------------

  log(event: string, detail?: JsonObject, at = this.ctx.now) {
    const timeline = this.state.timeline;
    timeline.push({ at: isoTime(at), event, ...(detail ? { detail } : {}) });
    if (timeline.length > TIMELINE_LIMIT) timeline.splice(0, timeline.length - TIMELINE_LIMIT);
  }

  emit(body: JsonObject, target: Target = this.state.setup.event) {
    this.effects.push({ kind: 'webhook', target, body });
  }

  /** Moves to a status and sends its event, which it answers. */
  emitStatus(status: CallStatus, at: number, extra: Parameters<typeof statusEvent>[3] = {}): JsonObject {
    const s = this.state;
    if (s.history.length > 0 && s.status !== status) s.history.push({ status, at });
    s.status = status;
    const event = statusEvent(s.setup, status, at, extra);
    this.emit(event);
    return event;
  }

  notLive(): StepOutcome {
    return { ok: false, reason: 'invalid-state', detail: `The call is ${this.describe()}` };
  }

  describe(): string {
    const s = this.state;
    return s.endedAt !== null ? `over (${s.status})` : `not answered (${s.status})`;
  }

  // ---- time ------------------------------------------------------------------------------------

  /** Fires every timer due by `now`, earliest first, each at its own time, so that a late alarm bills exactly. */
  fireDueTimers(now: number) {
    for (;;) {
      const due = (Object.entries(this.state.timers) as [TimerName, number][])
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])[0];
      if (!due) return;
      const [name, at] = due;
      delete this.state.timers[name];
      this.fire(name, at);
    }
  }

  fire(name: TimerName, at: number) {
    const { outcome } = this.state.setup;
    switch (name) {
      case 'ring':
        this.ring(at);
        if (outcome.actAfterMs !== null) this.state.timers.act = at + outcome.actAfterMs;
        return;
      case 'act':
        this.act(at);
        return;
      case 'ringing_timer':
        this.log('ringing_timer elapsed', undefined, at);
        this.end('timeout', at, { detail: null, by: 'platform' });
        return;
      case 'length_timer':
        this.log('length_timer elapsed', undefined, at);
        this.end('completed', at, { detail: null, by: 'platform' });
        return;
      case 'callee_hangup':
        this.log('callee hung up', undefined, at);
        this.end('completed', at, { detail: null, by: 'user' });
        return;
      case 'action':
        this.actionTimedOut(at);
        return;
    }
  }

  /** The network's plan for the callee, once it is time. */
  act(at: number) {
    const { behaviour, detail } = this.state.setup.outcome;
    switch (behaviour) {
      case 'answer':
        this.answer(at, 'human');
        return;
      case 'machine':
        this.answer(at, 'machine');
        return;
      case 'busy':
        this.end('busy', at, { detail, by: null });
        return;
      case 'reject':
        this.end('rejected', at, { detail, by: null });
        return;
      case 'unreachable':
        this.end('unanswered', at, { detail, by: null });
        return;
      case 'fail':
        this.end('failed', at, { detail, by: null });
        return;
      case 'no-answer':
        return;
    }
  }

  // ---- the call's life -------------------------------------------------------------------------

  ring(at: number) {
    const s = this.state;
    if (s.status !== 'started' || s.endedAt !== null) return;
    s.ringingAt = at;
    delete s.timers.ring;
    s.timers.ringing_timer = at + s.setup.ringingTimerMs;
    this.log('ringing', undefined, at);
    this.emitStatus('ringing', at);
  }

  /** The callee picks up: a person, or voicemail that machine detection may hang up on. */
  answer(at: number, by: 'human' | 'machine') {
    const s = this.state;
    if (s.status === 'started') this.ring(at);
    for (const t of ['ring', 'act', 'ringing_timer'] as const) delete s.timers[t];
    const detection = s.setup.machineDetection;
    if (by === 'machine' && detection === 'hangup') {
      this.log('voicemail answered; machine detection hung up', undefined, at);
      this.end('machine', at, { detail: null, by: 'platform' });
      return;
    }
    s.answeredAt = at;
    s.timers.length_timer = at + s.setup.lengthTimerMs;
    const { to } = s.setup;
    if (to.type === 'phone' && to.dtmfAnswer) this.log('dtmfAnswer sent', { digits: to.dtmfAnswer }, at);
    const hangupAfter = s.setup.outcome.hangupAfterMs;
    if (hangupAfter !== null) s.timers.callee_hangup = at + hangupAfter;
    this.log(by === 'machine' ? 'answered by voicemail' : 'answered', undefined, at);
    this.emitStatus('answered', at);
    if (by === 'machine' && detection === 'continue') this.emitStatus('machine', at);
    this.startProgram(at);
  }

  startProgram(at: number) {
    const { setup } = this.state;
    if (setup.parentUuid !== null) {
      this.state.program.waiting = { kind: 'hold', reason: 'connected' };
    } else if (setup.ncco) {
      this.load(setup.ncco, at);
    } else {
      const generation = ++this.state.program.generation;
      this.state.program.waiting = { kind: 'fetch', generation };
      this.effects.push({ kind: 'fetch-ncco', generation });
    }
  }

  /**
   * Ends the leg with a final status: stops what runs, bills it, tells its parent and hangs up the
   * legs it connected. A leg ends once; later calls do nothing.
   */
  end(status: CallStatus, at: number, how: { detail: string | null; by: DisconnectedBy | null }) {
    const s = this.state;
    if (s.endedAt !== null) return;
    this.leaveConversation();
    const recordings = this.stopRecordings();
    for (const child of s.children) this.effects.push({ kind: 'hangup-leg', uuid: child });
    s.children = [];
    s.timers = {};
    s.program.waiting = null;
    s.endedAt = at;
    s.disconnectedBy = how.by;
    s.detail = how.detail;
    let summary: CallSummary | undefined;
    if (status === 'completed' && s.answeredAt !== null) {
      s.durationSeconds = Math.ceil((at - s.answeredAt) / 1000);
      s.price = perSecondPrice(s.setup.rate, s.durationSeconds);
      summary = {
        startedAt: s.answeredAt,
        endedAt: at,
        durationSeconds: s.durationSeconds,
        rate: s.setup.rate,
        price: s.price,
        network: s.setup.network.code,
        disconnectedBy: how.by ?? 'platform',
      };
    }
    this.log(`ended: ${status}`, how.detail ? { detail: how.detail } : undefined, at);
    const event = this.emitStatus(status, at, { detail: how.detail, ...(summary ? { summary } : {}) });
    for (const r of recordings) this.emitRecording(r, at);
    this.charge();
    if (s.setup.parentUuid !== null) {
      this.effects.push({ kind: 'parent', parentUuid: s.setup.parentUuid, status, event });
    }
  }

  /** Every leg that ends is charged once: its price when it was answered, nothing otherwise. */
  charge() {
    const s = this.state;
    if (s.charged) return;
    s.charged = true;
    this.effects.push({ kind: 'charge', amount: s.price ?? 0, record: usageRecord(s) });
  }

  // ---- the callee (sandbox) --------------------------------------------------------------------

  callee(action: 'answer' | 'busy' | 'reject' | 'machine' | 'hangup', at: number): StepOutcome {
    const s = this.state;
    const waiting = s.endedAt === null && (s.status === 'started' || s.status === 'ringing');
    if (action === 'hangup') {
      if (!isLive(s)) return this.notLive();
      this.log('callee hung up (sandbox)');
      this.end('completed', at, { detail: null, by: 'user' });
      return { ok: true };
    }
    if (!waiting) {
      return { ok: false, reason: 'invalid-state', detail: `The call is no longer ringing (${s.status})` };
    }
    this.log(`callee: ${action} (sandbox)`);
    if (action === 'answer') this.answer(at, 'human');
    else if (action === 'machine') this.answer(at, 'machine');
    else if (action === 'busy') this.end('busy', at, { detail: 'busy', by: null });
    else this.end('rejected', at, { detail: 'declined', by: null });
    return { ok: true };
  }

  dtmf(digits: string, at: number): StepOutcome {
    if (!isLive(this.state)) return this.notLive();
    this.log('callee pressed keys (sandbox)', { digits });
    this.bargeIn(at);
    const waiting = this.state.program.waiting;
    if (waiting?.kind === 'input' && waiting.dtmf) {
      let entered = digits;
      if (waiting.submitOnHash && entered.includes('#')) entered = entered.slice(0, entered.indexOf('#'));
      this.finishInput({ dtmf: { digits: entered.slice(0, waiting.maxDigits), timed_out: false } }, at);
      return { ok: true, consumed: true };
    }
    if (waiting?.kind === 'record' && waiting.endOnKey !== null && digits.includes(waiting.endOnKey)) {
      this.emitRecording(waiting.recording, at);
      this.nextAction(at);
      return { ok: true, consumed: true };
    }
    const listener = this.state.dtmfListener;
    if (listener) {
      // Asynchronous DTMF: one input event per key, as it is pressed.
      for (const digit of digits.replace(/p/g, '')) {
        this.emit(inputEvent(this.state.setup, { dtmf: { digits: digit, timed_out: false } }, at), listener);
      }
      return { ok: true, consumed: true };
    }
    return { ok: true, consumed: false };
  }

  /**
   * A `talk` or `stream` with `bargeIn` stops when the callee starts keying or speaking, and the
   * NCCO moves on (to the `input` that should follow it).
   */
  bargeIn(at: number) {
    const program = this.state.program;
    const action = program.actions[program.index];
    if (program.waiting?.kind !== 'timer' && program.waiting?.kind !== 'hold') return;
    if ((action?.action === 'talk' || action?.action === 'stream') && action.bargeIn) {
      this.log(`barge-in: ${action.action} stopped`, undefined, at);
      this.nextAction(at);
    }
  }

  /** The leg leaves the named conversation it waits in, if it does. */
  leaveConversation() {
    const waiting = this.state.program.waiting;
    if (waiting?.kind === 'hold' && waiting.conversation !== undefined) {
      this.effects.push({ kind: 'leave-conversation', name: waiting.conversation });
    }
  }

  /**
   * The conversation the leg waits in started (a moderator joined: the music on hold stops) or was
   * ended by a leg with `endOnExit`: this leg goes on to the next action of its NCCO.
   */
  conversationChanged(
    kind: 'conversation-started' | 'conversation-ended',
    name: string,
    at: number,
  ): StepOutcome {
    const waiting = this.state.program.waiting;
    if (!isLive(this.state) || waiting?.kind !== 'hold' || waiting.conversation !== name) {
      return { ok: true, consumed: false };
    }
    if (kind === 'conversation-started') {
      this.log(`conversation ${name} started`, undefined, at);
      return { ok: true, consumed: true };
    }
    this.log(`conversation ${name} ended (endOnExit)`, undefined, at);
    // The conversation already let the leg go.
    this.state.program.waiting = null;
    this.nextAction(at);
    return { ok: true, consumed: true };
  }

  /** Registers (or with null removes) where asynchronous DTMF goes. */
  dtmfListener(target: Target | null): StepOutcome {
    if (!isLive(this.state)) return this.notLive();
    this.state.dtmfListener = target;
    this.log(target ? 'DTMF listener registered (API)' : 'DTMF listener removed (API)');
    return { ok: true };
  }

  speech(text: string, at: number): StepOutcome {
    if (!isLive(this.state)) return this.notLive();
    this.log('callee spoke (sandbox)', { text });
    this.bargeIn(at);
    const waiting = this.state.program.waiting;
    if (waiting?.kind === 'input' && waiting.speech) {
      this.finishInput({ speech: { results: [{ text, confidence: '0.95' }] } }, at);
      return { ok: true, consumed: true };
    }
    return { ok: true, consumed: false };
  }

  // ---- the API on a live call ------------------------------------------------------------------

  apiHangup(at: number): StepOutcome {
    const s = this.state;
    if (s.endedAt !== null) return this.notLive();
    this.log('hangup (API)');
    if (isLive(s)) this.end('completed', at, { detail: null, by: 'platform' });
    else this.end('cancelled', at, { detail: null, by: 'platform' });
    return { ok: true };
  }

  audioControl(kind: 'mute' | 'unmute' | 'earmuff' | 'unearmuff'): StepOutcome {
    if (!isLive(this.state)) return this.notLive();
    if (kind === 'mute' || kind === 'unmute') this.state.muted = kind === 'mute';
    else this.state.earmuffed = kind === 'earmuff';
    this.log(kind);
    return { ok: true };
  }

  liveAudio(
    input: Extract<CallInput, { kind: 'talk' | 'stream' | 'play-dtmf' | 'stop-talk' | 'stop-stream' }>,
  ) {
    if (!isLive(this.state)) return this.notLive();
    switch (input.kind) {
      case 'talk':
        this.log('talk (API)', { text: input.text });
        this.say(input.text);
        break;
      case 'stream':
        this.log('stream (API)', { url: input.url });
        break;
      case 'play-dtmf':
        this.log('dtmf (API)', { digits: input.digits });
        break;
      default:
        this.log(input.kind === 'stop-talk' ? 'talk stopped (API)' : 'stream stopped (API)');
    }
    return { ok: true } as StepOutcome;
  }

  transfer(actions: NccoAction[], at: number): StepOutcome {
    if (!isLive(this.state)) return this.notLive();
    this.log('transfer (API)', { actions: actions.length });
    this.abandonAction(at);
    this.emit(transferEvent(this.state.setup, at));
    this.load(actions, at);
    return { ok: true };
  }

  nccoLoaded(generation: number, actions: NccoAction[], at: number): StepOutcome {
    const waiting = this.state.program.waiting;
    if (!isLive(this.state) || waiting?.kind !== 'fetch' || waiting.generation !== generation) {
      return { ok: true, consumed: false };
    }
    this.log(waiting.reply ? `${waiting.reply} eventUrl returned an NCCO` : 'answer_url returned an NCCO', {
      actions: actions.length,
    });
    this.load(actions, at);
    return { ok: true, consumed: true };
  }

  nccoFailed(generation: number, reason: string, at: number): StepOutcome {
    const waiting = this.state.program.waiting;
    if (!isLive(this.state) || waiting?.kind !== 'fetch' || waiting.generation !== generation) {
      return { ok: true, consumed: false };
    }
    if (waiting.reply) {
      this.log(`${waiting.reply} eventUrl returned no NCCO; the call goes on`, { reason });
      this.nextAction(at);
      return { ok: true, consumed: true };
    }
    this.log('answer_url failed', { reason });
    this.emit(errorEvent(this.state.setup, reason, at));
    this.end('completed', at, { detail: null, by: 'platform' });
    return { ok: true, consumed: true };
  }

  /**
   * A connected leg ended. The NCCO goes on, unless the `connect` was synchronous and the leg never
   * connected (busy, unanswered, timeout...): then its `eventUrl` is asked, and an NCCO it answers
   * replaces the call's (failover).
   */
  childEnded(input: Extract<CallInput, { kind: 'child-ended' }>, at: number): StepOutcome {
    const s = this.state;
    const { uuid } = input;
    s.children = s.children.filter((c) => c !== uuid);
    const waiting = s.program.waiting;
    if (waiting?.kind === 'connect' && waiting.child === uuid && isLive(s)) {
      this.log('connected leg ended', { uuid, ...(input.status ? { status: input.status } : {}) });
      if (waiting.synchronous && input.status && input.status !== 'completed' && input.event) {
        this.askForNcco('connect', waiting.synchronous, input.event);
      } else {
        this.nextAction(at);
      }
      return { ok: true, consumed: true };
    }
    return { ok: true, consumed: false };
  }

  // ---- the NCCO --------------------------------------------------------------------------------

  /** Starts a new NCCO from its first action. */
  load(actions: NccoAction[], at: number) {
    const program = this.state.program;
    program.generation++;
    program.actions = actions;
    program.index = -1;
    program.waiting = null;
    this.nextAction(at);
  }

  /** Moves to the next action, running the ones that finish at once; past the last the call ends. */
  nextAction(at: number) {
    const s = this.state;
    delete s.timers.action;
    s.program.waiting = null;
    while (isLive(s)) {
      s.program.index++;
      const action = s.program.actions[s.program.index];
      if (!action) {
        this.log('NCCO finished', undefined, at);
        this.end('completed', at, { detail: null, by: 'platform' });
        return;
      }
      this.log(`action ${s.program.index}: ${action.action}`, undefined, at);
      if (!this.startAction(action, at)) return;
    }
  }

  /** Starts an action; true when it is already finished. */
  startAction(action: NccoAction, at: number): boolean {
    const s = this.state;
    switch (action.action) {
      case 'talk': {
        this.say(action.text);
        return this.timed(action.loop ?? 1, talkMs(action.text), at, 'talk');
      }
      case 'stream':
        return this.timed(action.loop ?? 1, STREAM_MS, at, 'stream');
      case 'wait':
        s.timers.action = at + Math.round((action.timeout ?? WAIT_DEFAULT_S) * 1000);
        s.program.waiting = { kind: 'timer' };
        return false;
      case 'input':
        return this.startInput(action, at);
      case 'record':
        return this.startRecord(action, at);
      case 'connect': {
        const child = this.ctx.newId();
        s.children.push(child);
        const synchronous =
          action.eventType === 'synchronous' ? target(action.eventUrl, action.eventMethod, null) : null;
        s.program.waiting = { kind: 'connect', child, ...(synchronous ? { synchronous } : {}) };
        if (action.ringbackTone)
          this.log('ringback tone plays to the caller', { url: action.ringbackTone }, at);
        this.effects.push({ kind: 'connect', uuid: child, action });
        return false;
      }
      case 'conversation': {
        if (action.record) s.program.recordings.push(this.newRecording(null, at, 'mp3', 1));
        s.program.waiting = {
          kind: 'hold',
          reason: `conversation ${action.name}`,
          conversation: action.name,
        };
        const startOnEnter = action.startOnEnter ?? true;
        const endOnExit = action.endOnExit ?? false;
        this.log(`joined conversation ${action.name}`, { startOnEnter, endOnExit }, at);
        this.effects.push({ kind: 'join-conversation', name: action.name, endOnExit, startOnEnter });
        return false;
      }
      case 'notify':
        // The payload goes to the eventUrl, whose reply may be an NCCO that replaces this one.
        this.askForNcco(
          'notify',
          target(action.eventUrl, action.eventMethod, s.setup.event),
          action.payload as JsonObject,
        );
        return false;
    }
  }

  /** A `talk` or `stream`: `loop` plays of `playMs` each; `loop` 0 plays until the call ends. */
  timed(loop: number, playMs: number, at: number, what: string): boolean {
    const s = this.state;
    if (loop === 0) {
      s.program.waiting = { kind: 'hold', reason: `${what} looping` };
      return false;
    }
    s.timers.action = at + loop * playMs;
    s.program.waiting = { kind: 'timer' };
    return false;
  }

  startInput(action: InputAction, at: number): boolean {
    if (action.mode === 'asynchronous') {
      // Keys go one by one to the eventUrl while the NCCO goes on.
      this.state.dtmfListener = target(action.eventUrl, action.eventMethod, this.state.setup.event);
      return true;
    }
    const types = action.type ?? ['dtmf'];
    const dtmf = types.includes('dtmf');
    const speech = types.includes('speech');
    const dtmfTimeout = action.dtmf?.timeOut ?? action.timeOut ?? DTMF_TIMEOUT_DEFAULT_S;
    const speechTimeout = action.speech?.startTimeout ?? SPEECH_START_TIMEOUT_DEFAULT_S;
    const seconds = Math.max(dtmf ? dtmfTimeout : 0, speech ? speechTimeout : 0);
    this.state.program.waiting = {
      kind: 'input',
      dtmf,
      speech,
      maxDigits: action.dtmf?.maxDigits ?? (action.maxDigits || MAX_DIGITS_DEFAULT),
      submitOnHash: action.dtmf?.submitOnHash ?? action.submitOnHash ?? false,
      target: action.eventUrl ? target(action.eventUrl, action.eventMethod, null) : null,
    };
    this.state.timers.action = at + Math.round(seconds * 1000);
    return false;
  }

  finishInput(result: InputResult, at: number) {
    const waiting = this.state.program.waiting;
    if (waiting?.kind !== 'input') return;
    const event = inputEvent(this.state.setup, result, at);
    if (!waiting.target) {
      this.emit(event, this.state.setup.event);
      this.nextAction(at);
      return;
    }
    this.askForNcco('input', waiting.target, event);
  }

  /**
   * Sends `body` to a URL that answers synchronously (an `input`'s or `notify`'s `eventUrl`, a
   * synchronous `connect`'s): an NCCO it returns replaces the call's, anything else lets the current
   * NCCO go on (the vendor's IVR behaviour).
   */
  askForNcco(reply: ReplySource, to: Target, body: JsonObject) {
    const generation = ++this.state.program.generation;
    this.state.program.waiting = { kind: 'fetch', generation, reply };
    this.effects.push({ kind: 'fetch-ncco', generation, request: { url: to.url, method: to.method, body } });
  }

  startRecord(action: RecordAction, at: number): boolean {
    const recording = this.newRecording(
      action.eventUrl ? target(action.eventUrl, action.eventMethod, null) : null,
      at,
      action.format ?? 'mp3',
      action.split === 'conversation' ? (action.channels ?? 2) : 1,
    );
    const synchronous =
      action.endOnKey !== undefined || action.timeOut !== undefined || action.endOnSilence !== undefined;
    if (!synchronous) {
      // Without a condition to stop on, the recording runs in the background until the call ends.
      this.state.program.recordings.push(recording);
      return true;
    }
    const limitMs = (action.timeOut ?? RECORD_TIMEOUT_DEFAULT_S) * 1000;
    const ms =
      action.endOnSilence !== undefined
        ? Math.min(limitMs, RECORD_SPEECH_MS + action.endOnSilence * 1000)
        : limitMs;
    this.state.program.waiting = { kind: 'record', recording, endOnKey: action.endOnKey ?? null };
    this.state.timers.action = at + ms;
    return false;
  }

  newRecording(t: Target | null, at: number, format: RecordingFormat, channels: number): Recording {
    return { uuid: this.ctx.newId(), startedAt: at, target: t, format, channels };
  }

  /** A recording ends: it is kept for download and its event says where. */
  emitRecording(recording: Recording, at: number) {
    const { setup } = this.state;
    const stored: StoredRecording = {
      uuid: recording.uuid,
      callUuid: setup.uuid,
      conversationUuid: setup.conversationUuid,
      // Recordings begun before formats were kept have neither: they were mono MP3.
      format: recording.format ?? 'mp3',
      channels: recording.channels ?? 1,
      startedAt: recording.startedAt,
      endedAt: at,
    };
    this.effects.push({ kind: 'recording', recording: stored });
    const url = `${setup.baseUrl}/v1/files/${recording.uuid}`;
    this.emit(recordEvent(setup, stored, url), recording.target ?? undefined);
  }

  /** The recordings to report when the leg ends: the running synchronous one and the background ones. */
  stopRecordings(): Recording[] {
    const program = this.state.program;
    const out = [...program.recordings];
    if (program.waiting?.kind === 'record') out.unshift(program.waiting.recording);
    program.recordings = [];
    return out;
  }

  /** The `action` timer: a timed action finished, an `input` heard nothing, a `record` stopped. */
  actionTimedOut(at: number) {
    const waiting = this.state.program.waiting;
    if (waiting?.kind === 'input') {
      const result: InputResult = {};
      if (waiting.dtmf) result.dtmf = { digits: '', timed_out: true };
      if (waiting.speech) result.speech = { timeout_reason: 'start_timeout' };
      this.finishInput(result, at);
      return;
    }
    if (waiting?.kind === 'record') this.emitRecording(waiting.recording, at);
    this.nextAction(at);
  }

  /** Leaves the running action for a transfer: a synchronous recording ends, a connected leg hangs up. */
  abandonAction(at: number) {
    const s = this.state;
    this.leaveConversation();
    const waiting = s.program.waiting;
    if (waiting?.kind === 'record') this.emitRecording(waiting.recording, at);
    if (waiting?.kind === 'connect') {
      this.effects.push({ kind: 'hangup-leg', uuid: waiting.child });
      s.children = s.children.filter((c) => c !== waiting.child);
    }
    delete s.timers.action;
    s.program.waiting = null;
  }

  /** Spoken words reach the handset inbox of the party on the line (phones only). */
  say(text: string) {
    const party = remoteParty(this.state.setup);
    if (party.type === 'phone') {
      this.effects.push({ kind: 'say', handset: party.number, text: plainText(text) });
    }
  }
}

function target(urls: string[] | undefined, method: 'GET' | 'POST' | undefined, fallback: Target): Target;
function target(
  urls: string[] | undefined,
  method: 'GET' | 'POST' | undefined,
  fallback: null,
): Target | null;
function target(urls: string[] | undefined, method: 'GET' | 'POST' | undefined, fallback: Target | null) {
  const url = urls?.[0];
  return url ? { url, method: method ?? 'POST' } : fallback;
}

/**
 * The phone on the other end of a leg, whom its NCCO talks to: the callee of an outbound leg, the
 * caller of an inbound one.
 */
export function remoteParty(setup: CallSetup): CallEndpoint {
  return setup.direction === 'inbound' ? setup.from : (setup.to as CallEndpoint);
}

/** How long text-to-speech takes to say a text once. */
export function talkMs(text: string): number {
  const words = plainText(text).split(/\s+/).filter(Boolean).length;
  return Math.max(MIN_TALK_MS, words * MS_PER_WORD);
}

/** The words of a text without its SSML markup. */
function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Billing per second at a per-minute rate, rounded half up to 10^-8 EUR: the vendor's own example is
 * 2 s at 0.0045/min costing 0.00015.
 *
 * @example
 * perSecondPrice(450_000, 2) // 15_000
 */
export function perSecondPrice(rate: Amount, seconds: number): Amount {
  return Math.floor((rate * seconds + 30) / 60);
}

/** The `VOICE-CALL` (or `WEBSOCKET-CALL`) usage record of spec 2.14. */
function usageRecord(s: CallState): JsonObject {
  const price = formatAmount(s.price ?? 0);
  const common = {
    account_id: s.setup.apiKey,
    call_id: s.setup.uuid,
    date_start: isoTime(s.answeredAt ?? s.createdAt),
    date_end: isoTime(s.endedAt ?? s.createdAt),
    duration: String(s.durationSeconds ?? 0),
    status: s.status,
    currency: 'EUR',
    price,
    total_price: price,
  };
  if (s.setup.product === 'WEBSOCKET-CALL') return common;
  return {
    ...common,
    direction: s.setup.direction,
    from: endpointAddress(s.setup.from),
    to: endpointAddress(s.setup.to as CallEndpoint),
    network: s.setup.network.code,
    network_name: s.setup.network.name,
    country: s.setup.network.country,
    country_name: s.setup.network.countryName,
    status_description: s.detail ?? s.status,
  };
}
