import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advance,
  CANCEL_OPENS_AFTER_MS,
  check,
  control,
  create,
  type Effect,
  latestEnd,
  nextDeadline,
  type Plan,
  type Randomness,
  type RequestState,
  WORKFLOWS,
  type WorkflowId,
  WRONG_CHECKS_ALLOWED,
} from './machine';

/**
 * Random sequences of checks (right, wrong, or an earlier code), control commands and elapsed time
 * against one request, with the invariants of spec 3.1 checked after every step.
 */

type Action =
  | { kind: 'wait'; ms: number }
  | { kind: 'check'; code: 'right' | 'wrong' | 'first' }
  | { kind: 'cancel' }
  | { kind: 'trigger' };

const S = 1000;

const planArb: fc.Arbitrary<Plan> = fc
  .record({
    workflowId: fc.integer({ min: 1, max: 7 }),
    waitSeconds: fc.integer({ min: 60, max: 900 }),
    expiryFactor: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    expirySeconds: fc.integer({ min: 60, max: 3600 }),
    codeLength: fc.constantFrom(4 as const, 6 as const),
    pinCode: fc.option(fc.constantFrom('4242', 'ab12cd'), { nil: undefined }),
  })
  .map((p) => ({
    workflow: WORKFLOWS[p.workflowId as WorkflowId],
    nextEventWaitMs: p.waitSeconds * S,
    // Either a multiple of the wait (the vendor's rule) or any expiry of its own range.
    pinExpiryMs: (p.expiryFactor ? p.expiryFactor * p.waitSeconds : p.expirySeconds) * S,
    codeLength: p.codeLength,
    ...(p.pinCode ? { pinCode: p.pinCode } : {}),
  }));

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.integer({ min: 0, max: 1_000 * S }).map((ms) => ({ kind: 'wait' as const, ms })),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom('right', 'wrong', 'first').map((code) => ({ kind: 'check' as const, code })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'trigger' as const }) },
);

/** Distinct digit codes of the asked length; a wrong code is letters, so never equal to one. */
function randomness(): Randomness {
  let n = 0;
  let ids = 0;
  return {
    code: (length) => String(++n).padStart(length, '7'),
    eventId: () => `E${++ids}`,
  };
}

const WRONG = 'zzzz';

const isFinal = (s: RequestState) => s.status !== 'IN PROGRESS';

/** The invariants that hold of any state, whatever led to it. */
function checkState(s: RequestState): void {
  const { workflow } = s.plan;
  expect(s.events.length).toBeGreaterThanOrEqual(1);
  expect(s.events.length).toBeLessThanOrEqual(workflow.length);
  expect(s.events.map((e) => e.type)).toEqual(workflow.slice(0, s.events.length));
  for (let i = 1; i < s.events.length; i++)
    expect(s.events[i]!.at).toBeGreaterThanOrEqual(s.events[i - 1]!.at);
  expect(s.wrongChecks).toBeLessThanOrEqual(WRONG_CHECKS_ALLOWED + 1);
  if (!isFinal(s)) {
    // At most three wrong checks of a code while the request can still succeed.
    expect(s.wrongChecks).toBeLessThanOrEqual(WRONG_CHECKS_ALLOWED);
    expect(s.finalizedAt).toBeNull();
    expect(s.nextEventAt === null).toBe(s.events.length === workflow.length);
    expect(nextDeadline(s)).not.toBeNull();
    return;
  }
  expect(s.finalizedAt).not.toBeNull();
  expect(s.nextEventAt).toBeNull();
  expect(nextDeadline(s)).toBeNull();
  expect(s.finalizedAt!).toBeLessThanOrEqual(latestEnd(s.plan, s.submittedAt));
  for (const e of s.events) expect(e.at).toBeLessThanOrEqual(s.finalizedAt!);
  for (const c of s.checks) expect(c.at).toBeLessThanOrEqual(s.finalizedAt!);
  if (s.status === 'SUCCESS') expect(s.checks.at(-1)?.status).toBe('VALID');
  else expect(s.checks.every((c) => c.status === 'INVALID')).toBe(true);
  if (s.status === 'FAILED') expect(s.wrongChecks).toBe(WRONG_CHECKS_ALLOWED + 1);
  if (s.status === 'EXPIRED') {
    expect(s.events.length).toBe(workflow.length);
    expect(s.finalizedAt).toBe(s.codeExpiresAt);
  }
  if (s.status === 'CANCELLED') {
    expect(s.finalizedAt! - s.submittedAt).toBeGreaterThanOrEqual(CANCEL_OPENS_AFTER_MS);
    expect(s.events.length).toBeLessThanOrEqual(1);
  }
}

/** Effects match what changed: one delivery per new attempt, one `finalized` on entering a final state. */
function checkEffects(before: RequestState, after: RequestState, effects: Effect[]): void {
  const delivered = effects.filter((e) => e.kind === 'deliver').map((e) => e.event);
  expect(delivered).toEqual(after.events.slice(before.events.length));
  const finalized = effects.filter((e) => e.kind === 'finalized');
  if (!isFinal(before) && isFinal(after)) {
    expect(finalized).toEqual([{ kind: 'finalized', status: after.status, at: after.finalizedAt }]);
  } else {
    expect(finalized).toEqual([]);
  }
}

describe('the verify state machine (spec 3.1), property-based', () => {
  it('keeps every invariant under random checks, controls and time', () => {
    fc.assert(
      fc.property(planArb, fc.array(actionArb, { maxLength: 40 }), (plan, actions) => {
        const random = randomness();
        let now = 0;
        let state = create(plan, now, random).state;
        const firstCode = state.code;
        checkState(state);
        for (const action of actions) {
          const before = state;
          if (action.kind === 'wait') {
            now += action.ms;
            const t = advance(state, now, random);
            checkEffects(before, t.state, t.effects);
            state = t.state;
          } else if (action.kind === 'check') {
            // What a check at `now` is judged against: the request as time has left it.
            const due = advance(state, now, random);
            const code =
              action.code === 'right' ? due.state.code : action.code === 'first' ? firstCode : WRONG;
            const t = check(state, code, now, random);
            checkEffects(before, t.state, t.effects);
            const live = due.state.status === 'IN PROGRESS';
            const right = code === due.state.code && now < due.state.codeExpiresAt;
            if (!live) {
              // No way out of a final state, and nothing is recorded.
              expect(t.result.outcome).toBe(due.state.status === 'FAILED' ? 'too-many' : 'inactive');
              expect(t.state.checks).toEqual(due.state.checks);
            } else if (right) {
              // Success exactly with the right code before it expires.
              expect(t.result.outcome).toBe('match');
              expect(t.state.status).toBe('SUCCESS');
            } else {
              expect(t.state.status).not.toBe('SUCCESS');
              const failed = due.state.wrongChecks === WRONG_CHECKS_ALLOWED;
              expect(t.result.outcome).toBe(failed ? 'too-many' : 'mismatch');
              expect(t.state.status).toBe(failed ? 'FAILED' : 'IN PROGRESS');
            }
            state = t.state;
          } else {
            const t = control(state, action.kind === 'cancel' ? 'cancel' : 'trigger_next_event', now, random);
            checkEffects(before, t.state, t.effects);
            if (isFinal(before)) expect(t.result.outcome).toBe('inactive');
            if (action.kind === 'trigger' && t.result.outcome === 'done') {
              // A new code, with a new allowance of wrong checks.
              expect(t.state.wrongChecks).toBe(0);
              expect(t.state.codeExpiresAt).toBe(now + plan.pinExpiryMs);
            }
            state = t.state;
          }
          if (isFinal(before)) {
            // No way out of a final state.
            expect(state).toEqual(before);
          }
          checkState(state);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('expires every request by itself, no later than its latest end, if nobody acts', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const random = randomness();
        const start = create(plan, 0, random).state;
        const ended = advance(start, latestEnd(plan, 0), random).state;
        expect(ended.status).toBe('EXPIRED');
        expect(advance(start, ended.finalizedAt! - 1, random).state.status).toBe('IN PROGRESS');
      }),
    );
  });
});
