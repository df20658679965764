import type { NumberInfo } from './directory';
import { magicBlockOf } from './magic';

/**
 * What the callee's side of a call does:
 * - `answer`: a person picks up;
 * - `machine`: voicemail picks up (machine detection decides what follows);
 * - `no-answer`: the phone rings until the caller's ringing timer gives up (`timeout`);
 * - `busy`: on another call (`busy`);
 * - `reject`: the callee declines while it rings (`rejected`);
 * - `unreachable`: switched off or out of coverage, never rings (`unanswered`);
 * - `fail`: the network cannot connect the call (`failed`).
 */
export type CalleeBehaviour = 'answer' | 'machine' | 'no-answer' | 'busy' | 'reject' | 'unreachable' | 'fail';

/** What the simulated network does with a call to a number, decided when the call is placed. */
export interface CallOutcome {
  behaviour: CalleeBehaviour;
  /** Milliseconds from the start of the call until the phone rings; null when it never rings. */
  ringAfterMs: number | null;
  /**
   * Milliseconds from ringing (from the start when it never rings) until the callee acts: answers,
   * declines, or the network reports busy, unreachable or failed. Null for `no-answer`.
   */
  actAfterMs: number | null;
  /** For answered calls: milliseconds after answering until the callee hangs up; null: never. */
  hangupAfterMs: number | null;
  /** The vendor's `detail` of a call that did not connect (`declined`, `unavailable`, ...). */
  detail: string | null;
}

/** The first ring of an ordinary call, and how long an ordinary callee lets it ring. */
export const CALL_RING_AFTER_MS = 1000;
export const CALL_ANSWER_AFTER_MS = 2000;

/**
 * The call suffixes of every magic block (README, "The simulated network: magic numbers"). They sit in
 * the 400-599 range that `MAGIC_SUFFIXES` reserves for calls; other suffixes of the range answer as
 * ordinary phones.
 */
export const CALL_SUFFIXES: Readonly<Record<number, { outcome: CallOutcome; summary: string }>> = {
  400: {
    outcome: outcome('busy', null, 1000, null, 'busy'),
    summary: 'call: busy after 1 s (status `busy`)',
  },
  401: {
    outcome: outcome('reject', CALL_RING_AFTER_MS, 2000, null, 'declined'),
    summary: 'call: rings, then the callee declines after 2 s (status `rejected`)',
  },
  402: {
    outcome: outcome('no-answer', CALL_RING_AFTER_MS, null, null, null),
    summary: 'call: rings until `ringing_timer` ends it (`timeout`) or the sandbox steers it',
  },
  403: {
    outcome: outcome('machine', CALL_RING_AFTER_MS, 2000, null, null),
    summary: 'call: voicemail answers after 2 s of ringing (`machine_detection` applies)',
  },
  404: {
    outcome: outcome('unreachable', null, 2000, null, 'unavailable'),
    summary: 'call: unreachable, never rings (status `unanswered` after 2 s)',
  },
  405: {
    outcome: outcome('fail', null, 1000, null, 'cannot_route'),
    summary: 'call: cannot be connected (status `failed` after 1 s)',
  },
  406: {
    outcome: outcome('answer', CALL_RING_AFTER_MS, CALL_ANSWER_AFTER_MS, 5000, null),
    summary: 'call: answers after 2 s of ringing, hangs up 5 s later (`completed`)',
  },
  407: {
    outcome: outcome('answer', CALL_RING_AFTER_MS, 10_000, null, null),
    summary: 'call: answers after 10 s of ringing',
  },
};

function outcome(
  behaviour: CalleeBehaviour,
  ringAfterMs: number | null,
  actAfterMs: number | null,
  hangupAfterMs: number | null,
  detail: string | null,
): CallOutcome {
  return { behaviour, ringAfterMs, actAfterMs, hangupAfterMs, detail };
}

/** An ordinary phone: rings after 1 s, a person answers 2 s later and stays until the call ends. */
export const ORDINARY_CALL: CallOutcome = outcome(
  'answer',
  CALL_RING_AFTER_MS,
  CALL_ANSWER_AFTER_MS,
  null,
  null,
);

/**
 * What happens to a call to a looked-up number. Ordinary valid numbers (mobiles and landlines alike)
 * ring after 1 s and are answered 2 s later; the magic call suffixes 400-407 pick the other outcomes,
 * and the directory's own behaviours carry over: a switched-off phone (102) is unreachable, a barred
 * one (103) is rejected, an undeliverable (104) or out-of-service (106) number fails, as does a number
 * no numbering plan knows.
 *
 * @example
 * callOutcome(lookup('447700900400')) // { behaviour: 'busy', ringAfterMs: null, actAfterMs: 1000, ... }
 * callOutcome(lookup('447400123456')) // ORDINARY_CALL
 */
export function callOutcome(info: NumberInfo): CallOutcome {
  const block = magicBlockOf(info.msisdn);
  if (block) {
    const special = CALL_SUFFIXES[Number(info.msisdn.slice(-3))];
    if (special) return special.outcome;
  }
  switch (info.magic?.kind) {
    case 'absent':
      return outcome('unreachable', null, 2000, null, 'unavailable');
    case 'barred':
      return outcome('reject', null, 1000, null, 'restricted');
    case 'undeliverable':
      return outcome('fail', null, 1000, null, 'cannot_route');
    case 'bad_number':
      return outcome('fail', null, 1000, null, 'number_out_of_service');
  }
  if (!info.valid) return outcome('fail', null, 1000, null, 'number_out_of_service');
  return ORDINARY_CALL;
}

/** The outcome of a call to an endpoint that is not a phone number (SIP, websocket, VBC, app). */
export function endpointCallOutcome(): CallOutcome {
  return ORDINARY_CALL;
}
