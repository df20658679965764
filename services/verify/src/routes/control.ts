import { authOf, type FamilyEnv, readParams } from '@comms/core';
import { Hono } from 'hono';
import type { ControlOutcome } from '../machine';
import { endpoint, isRequestId, throttle } from '../middleware';
import { requestOf } from '../objects';
import { readControl } from '../params';
import { answer } from '../render';
import { controlNotFound, VERIFY_STATUS, VerifyRefusal } from '../status';

/**
 * `GET|POST /verify/control/:format` (reference `verifyControl`): `cancel` a request, or
 * `trigger_next_event` to send the next attempt now.
 */
export const control = new Hono<FamilyEnv<Env>>();

const PATH = '/verify/control/:format';

control.use(PATH, ...endpoint('control'));

control.on(['GET', 'POST'], PATH, async (c) => {
  const { requestId, command } = readControl(await readParams(c));
  await throttle(c);
  if (!isRequestId(requestId)) throw controlNotFound(requestId);
  const result = await requestOf(c.env, requestId).control(authOf(c).apiKey, command);
  if (result.outcome === 'done') return answer(c, 'control', { status: '0', command });
  throw refusalOf(result.outcome, requestId);
});

/** The reference's status 19 texts, and 6 for a request that is unknown or over. */
function refusalOf(outcome: Exclude<ControlOutcome['outcome'], 'done'>, id: string): VerifyRefusal {
  switch (outcome) {
    case 'too-early':
      return new VerifyRefusal(
        VERIFY_STATUS.cannotControl,
        `Verification request ['${id}'] can't be cancelled within the first 30 seconds.`,
      );
    case 'too-late':
      return new VerifyRefusal(
        VERIFY_STATUS.cannotControl,
        `Verification request  ['${id}'] can't be cancelled now. Too many attempts to re-deliver have already been made.`,
      );
    case 'no-more-events':
      return new VerifyRefusal(
        VERIFY_STATUS.cannotControl,
        `No more events are left to execute for the request ['${id}']`,
      );
    case 'inactive':
      return controlNotFound(id);
  }
}
