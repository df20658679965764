import {
  ApiError,
  acceptFormat,
  amountToNumber,
  authOf,
  errorStyle,
  formatAmount,
  legacyStyle,
  param,
  readParams,
  respond,
} from '@comms/core';
import { Hono } from 'hono';
import { accountOf } from '../accounts';
import { type AccountsEnv, auth } from '../middleware';

/** `GET /account/get-balance` and `POST /account/top-up` (spec 4.3), legacy `error-code` style. */
export const balance = new Hono<AccountsEnv>();

balance.get(
  '/account/get-balance',
  acceptFormat,
  errorStyle(legacyStyle({ root: 'accountBalance' })),
  auth(['key-secret', 'signature']),
  async (c) => {
    const result = await accountOf(c.env, authOf(c).apiKey).balance();
    if (!result) throw new ApiError({ kind: 'unauthorized' });
    return respond(
      c,
      { value: amountToNumber(result.value), autoReload: result.autoReload },
      { root: 'accountBalance', xml: { value: formatAmount(result.value), autoReload: result.autoReload } },
    );
  },
);

balance.post(
  '/account/top-up',
  acceptFormat,
  errorStyle(legacyStyle()),
  auth(['key-secret', 'signature']),
  async (c) => {
    const trx = param(await readParams(c), 'trx')?.trim();
    if (!trx) {
      throw new ApiError({ kind: 'validation', label: 'missing parameter: trx', detail: 'trx is required' });
    }
    const result = await accountOf(c.env, authOf(c).apiKey).topUp(trx);
    if (!result.ok) throw new ApiError({ kind: 'unauthorized', label: 'not auto-reload enabled' });
    return respond(c, { 'error-code': '200', 'error-code-label': 'success' }, { root: 'response' });
  },
);
