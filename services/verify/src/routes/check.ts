import { authOf, type FamilyEnv, formatAmount, readParams } from '@comms/core';
import { Hono } from 'hono';
import { CURRENCY } from '../facts';
import { endpoint, isRequestId, throttle } from '../middleware';
import { requestOf } from '../objects';
import { readCheck } from '../params';
import { answer } from '../render';
import { requestNotFound, STATUS_TEXT, VERIFY_STATUS, VerifyRefusal } from '../status';

/** `GET|POST /verify/check/:format` (spec 4.6, 2.8): checks the code the user gave. */
export const check = new Hono<FamilyEnv<Env>>();

const PATH = '/verify/check/:format';

check.use(PATH, ...endpoint('check'));

check.on(['GET', 'POST'], PATH, async (c) => {
  const { requestId, code } = readCheck(await readParams(c));
  await throttle(c);
  if (!isRequestId(requestId)) throw requestNotFound(requestId);
  const result = await requestOf(c.env, requestId).check(authOf(c).apiKey, code);
  switch (result.outcome) {
    case 'match':
      return answer(c, 'check', {
        request_id: requestId,
        event_id: result.eventId,
        status: '0',
        price: formatAmount(result.price),
        currency: CURRENCY,
        estimated_price_messages_sent: formatAmount(result.messagesPrice),
      });
    case 'mismatch':
      throw new VerifyRefusal(VERIFY_STATUS.mismatch, STATUS_TEXT.mismatch);
    case 'too-many':
      throw new VerifyRefusal(VERIFY_STATUS.tooManyWrong, STATUS_TEXT.tooManyWrong);
    case 'inactive':
      throw requestNotFound(requestId);
  }
});
