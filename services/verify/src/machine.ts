/**
 * A verify request as a pure state machine (spec 3.1). Every transition takes the time it happens at
 * and a source of codes and ids, and answers the new state, what the caller asked for, and the
 * effects the Durable Object must carry out (a message to the phone, the end of the request). Nothing
 * here reads a clock or storage: the Durable Object is a thin shell around it, and the property test
 * replays random sequences of checks, controls and time against it in plain Node.
 */

/** How one attempt to deliver the code reaches the phone. */
export type Channel = 'sms' | 'tts';

/** The request's `status` in search (spec 3.1). */
export type RequestStatus = 'IN PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELLED';

export type FinalStatus = Exclude<RequestStatus, 'IN PROGRESS'>;

export type WorkflowId = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The vendor's predefined sequences of delivery attempts, by `workflow_id`. */
export const WORKFLOWS: Readonly<Record<WorkflowId, readonly Channel[]>> = {
  1: ['sms', 'tts', 'tts'],
  2: ['sms', 'sms', 'tts'],
  3: ['tts', 'tts'],
  4: ['sms', 'sms'],
  5: ['sms', 'tts'],
  6: ['sms'],
  7: ['tts'],
};

/** Wrong checks one code may take; the next wrong one fails the request (spec 3.1, status 17). */
export const WRONG_CHECKS_ALLOWED = 3;

/** A request may be cancelled only once this much time has passed since it was made (reference, `cmd`). */
export const CANCEL_OPENS_AFTER_MS = 30_000;

/** What the request was asked to do; fixed when it is made. */
export interface Plan {
  workflow: readonly Channel[];
  /** How long a generated code stays valid. */
  pinExpiryMs: number;
  /** The wait between one delivery attempt and the next. */
  nextEventWaitMs: number;
  codeLength: 4 | 6;
  /** The account's own code (`pin_code`), used instead of a generated one. */
  pinCode?: string;
}

/** One delivery attempt (search `events`). */
export interface SentEvent {
  id: string;
  type: Channel;
  at: number;
  /** The code this attempt delivered. */
  code: string;
}

/** One check of a code (search `checks`). */
export interface CheckRecord {
  at: number;
  code: string;
  status: 'VALID' | 'INVALID';
}

export interface RequestState {
  plan: Plan;
  status: RequestStatus;
  submittedAt: number;
  finalizedAt: number | null;
  /** The code that a check must match now. */
  code: string;
  codeExpiresAt: number;
  /** Wrong checks since the current code was generated. */
  wrongChecks: number;
  events: SentEvent[];
  /** When the next delivery attempt is due; null when none is left or the request is over. */
  nextEventAt: number | null;
  checks: CheckRecord[];
}

/** What the Durable Object must do after a transition. */
export type Effect =
  | { kind: 'deliver'; event: SentEvent }
  | { kind: 'finalized'; status: FinalStatus; at: number };

/** Where codes and event ids come from: random in the service, scripted in tests. */
export interface Randomness {
  code(length: 4 | 6): string;
  eventId(): string;
}

export interface Transition<R> {
  state: RequestState;
  effects: Effect[];
  result: R;
}

/** What a check answered: the code matched, did not, had too many wrong tries, or the request is over. */
export type CheckOutcome =
  | { outcome: 'match'; eventId: string }
  | { outcome: 'mismatch' }
  | { outcome: 'too-many' }
  | { outcome: 'inactive' };

/** What a control command answered. */
export type ControlOutcome =
  | { outcome: 'done' }
  | { outcome: 'too-early' }
  | { outcome: 'too-late' }
  | { outcome: 'no-more-events' }
  | { outcome: 'inactive' };

export type Command = 'cancel' | 'trigger_next_event';

/** A mutable copy of a state and the effects gathered while changing it. */
interface Draft {
  state: RequestState;
  effects: Effect[];
}

function draftOf(state: RequestState): Draft {
  return { state: structuredClone(state), effects: [] };
}

function done<R>(draft: Draft, result: R): Transition<R> {
  return { state: draft.state, effects: draft.effects, result };
}

/**
 * A new request: the first attempt goes out at once with a fresh code.
 *
 * @example
 * const { state, effects } = create({ workflow: WORKFLOWS[1], pinExpiryMs: 300_000, nextEventWaitMs: 300_000, codeLength: 4 }, Date.now(), random);
 * effects[0] // { kind: 'deliver', event: { type: 'sms', code: '1234', ... } }
 */
export function create(plan: Plan, now: number, random: Randomness): Transition<undefined> {
  const draft: Draft = {
    state: {
      plan,
      status: 'IN PROGRESS',
      submittedAt: now,
      finalizedAt: null,
      code: '',
      codeExpiresAt: now,
      wrongChecks: 0,
      events: [],
      nextEventAt: null,
      checks: [],
    },
    effects: [],
  };
  sendNextEvent(draft, now, random, { newCode: true });
  return done(draft, undefined);
}

/**
 * Applies everything time has done up to `now`, in the order it happened: delivery attempts that came
 * due, and expiry once the last attempt's code has run out.
 */
export function advance(state: RequestState, now: number, random: Randomness): Transition<undefined> {
  const draft = draftOf(state);
  advanceDraft(draft, now, random);
  return done(draft, undefined);
}

function advanceDraft(draft: Draft, now: number, random: Randomness): void {
  for (;;) {
    const s = draft.state;
    if (s.status !== 'IN PROGRESS') return;
    if (s.nextEventAt !== null && s.nextEventAt <= now) {
      // An attempt at its own due time, so that a late alarm changes nothing but when it is seen.
      sendNextEvent(draft, s.nextEventAt, random, { newCode: false });
    } else if (s.nextEventAt === null && s.codeExpiresAt <= now) {
      finalize(draft, 'EXPIRED', s.codeExpiresAt);
    } else {
      return;
    }
  }
}

/**
 * A check of a code at `now`: right (and not expired) ends the request in SUCCESS; wrong counts
 * against the code's allowance, and the wrong check beyond it ends the request in FAILED.
 */
export function check(
  state: RequestState,
  code: string,
  now: number,
  random: Randomness,
): Transition<CheckOutcome> {
  const draft = draftOf(state);
  advanceDraft(draft, now, random);
  const s = draft.state;
  if (s.status === 'FAILED') return done(draft, { outcome: 'too-many' });
  if (s.status !== 'IN PROGRESS') return done(draft, { outcome: 'inactive' });
  const valid = code === s.code && now < s.codeExpiresAt;
  s.checks.push({ at: now, code, status: valid ? 'VALID' : 'INVALID' });
  if (valid) {
    finalize(draft, 'SUCCESS', now);
    return done(draft, { outcome: 'match', eventId: s.events.at(-1)!.id });
  }
  s.wrongChecks += 1;
  if (s.wrongChecks > WRONG_CHECKS_ALLOWED) {
    finalize(draft, 'FAILED', now);
    return done(draft, { outcome: 'too-many' });
  }
  return done(draft, { outcome: 'mismatch' });
}

/**
 * A control command at `now`. `cancel` is allowed from 30 s after the request until the second
 * attempt; `trigger_next_event` sends the next attempt at once, with a new code.
 */
export function control(
  state: RequestState,
  command: Command,
  now: number,
  random: Randomness,
): Transition<ControlOutcome> {
  const draft = draftOf(state);
  advanceDraft(draft, now, random);
  const s = draft.state;
  if (s.status !== 'IN PROGRESS') return done(draft, { outcome: 'inactive' });
  if (command === 'cancel') {
    if (now - s.submittedAt < CANCEL_OPENS_AFTER_MS) return done(draft, { outcome: 'too-early' });
    if (s.events.length >= 2) return done(draft, { outcome: 'too-late' });
    finalize(draft, 'CANCELLED', now);
    return done(draft, { outcome: 'done' });
  }
  if (s.events.length >= s.plan.workflow.length) return done(draft, { outcome: 'no-more-events' });
  sendNextEvent(draft, now, random, { newCode: true });
  return done(draft, { outcome: 'done' });
}

/** When time next changes the request by itself (an attempt or expiry); null once it is over. */
export function nextDeadline(state: RequestState): number | null {
  if (state.status !== 'IN PROGRESS') return null;
  return state.nextEventAt ?? state.codeExpiresAt;
}

/**
 * The latest a request made at `submittedAt` can still be in progress: every attempt at its time and
 * the last one's code running its full life. Triggering attempts early only brings this forward.
 */
export function latestEnd(plan: Plan, submittedAt: number): number {
  return submittedAt + (plan.workflow.length - 1) * plan.nextEventWaitMs + plan.pinExpiryMs;
}

/**
 * The next attempt of the workflow at `at`. The code is kept while it is valid (the vendor's timing
 * rules) unless `newCode` asks for one; a new code resets the wrong-check allowance.
 */
function sendNextEvent(draft: Draft, at: number, random: Randomness, options: { newCode: boolean }): void {
  const s = draft.state;
  if (options.newCode || at >= s.codeExpiresAt) {
    s.code = s.plan.pinCode ?? random.code(s.plan.codeLength);
    s.codeExpiresAt = at + s.plan.pinExpiryMs;
    s.wrongChecks = 0;
  }
  const event: SentEvent = {
    id: random.eventId(),
    type: s.plan.workflow[s.events.length]!,
    at,
    code: s.code,
  };
  s.events.push(event);
  s.nextEventAt = s.events.length < s.plan.workflow.length ? at + s.plan.nextEventWaitMs : null;
  draft.effects.push({ kind: 'deliver', event });
}

function finalize(draft: Draft, status: FinalStatus, at: number): void {
  draft.state.status = status;
  draft.state.finalizedAt = at;
  draft.state.nextEventAt = null;
  draft.effects.push({ kind: 'finalized', status, at });
}
