import {
  type AccountIdentity,
  ApiError,
  acceptFormat,
  authOf,
  countryAlpha2,
  errorStyle,
  legacyStyle,
  parseWith,
  readParams,
  respond,
} from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { NEEDS_LOCAL_ADDRESS } from '../inventory';
import { auth, type NumbersEnv } from '../middleware';
import { accounts, countryOfMsisdn, holdingsOf, noteState, poolOf } from '../numbers';
import { firstValues } from './params';

/** `POST /number/buy` and `POST /number/cancel` (spec 4.2). */
export const purchase = new Hono<NumbersEnv>();

export const numberDetails = z.object({
  country: countryAlpha2,
  msisdn: z.string({ error: 'Is required' }).regex(/^\d{7,15}$/, 'Must be an E.164 number of 7 to 15 digits'),
  target_api_key: z.string().min(1).optional(),
});

const SUCCESS = { 'error-code': '200', 'error-code-label': 'success' };

/** The vendor's answer to an operation on a number that cannot be done. */
export const methodFailed = (label = 'method failed') =>
  new ApiError({ kind: 'validation', status: 420, label });

/**
 * The account an operation acts for: the caller, or with `target_api_key` one of its secondary
 * accounts.
 */
export async function actingAccount(
  env: Env,
  caller: AccountIdentity,
  target: string | undefined,
): Promise<string> {
  if (!target || target === caller.apiKey) return caller.apiKey;
  const identity = await accounts(env).identity(target);
  if (identity?.primaryApiKey !== caller.apiKey) {
    throw new ApiError({
      kind: 'unauthorized',
      label: 'target_api_key is not a secondary account of this account',
    });
  }
  return target;
}

/** The number must be of the given country. */
export function checkCountry(msisdn: string, country: string) {
  if (countryOfMsisdn(msisdn) !== country)
    throw methodFailed(`msisdn ${msisdn} is not a number of country ${country}`);
}

purchase.use('/number/*', acceptFormat, errorStyle(legacyStyle()), auth());

purchase.post('/number/buy', async (c) => {
  const params = parseWith(numberDetails, firstValues(await readParams(c)));
  const owner = await actingAccount(c.env, authOf(c), params.target_api_key);
  if (NEEDS_LOCAL_ADDRESS.has(params.country)) {
    throw new ApiError({
      kind: 'validation',
      status: 420,
      label:
        'Numbers from this country can be requested from the Dashboard (https://dashboard.nexmo.com/buy-numbers) as they require a valid local address to be provided before being purchased.',
    });
  }
  checkCountry(params.msisdn, params.country);
  const pool = poolOf(c.env, params.country);
  await noteState(c.env, 'pool', params.country);
  const bought = await pool.buy(params.country, params.msisdn, owner);
  if (!bought.ok) throw methodFailed();
  // The first month is charged at once; without the funds the number goes back to the pool.
  const charge = await accounts(c.env).charge(owner, {
    product: 'NUMBERS',
    id: `${params.msisdn}-${Date.now()}`,
    amount: bought.number.cost,
    record: {
      msisdn: params.msisdn,
      country: params.country,
      type: bought.number.type,
      period: 'first month',
    },
  });
  if (!charge.ok) {
    await pool.release(params.msisdn, owner);
    throw methodFailed('insufficient funds to pay the first month of rental');
  }
  await noteState(c.env, 'holdings', owner);
  await holdingsOf(c.env, owner).add({
    msisdn: params.msisdn,
    country: params.country,
    type: bought.number.type,
    features: bought.number.features,
  });
  return respond(c, SUCCESS, { root: 'response' });
});

purchase.post('/number/cancel', async (c) => {
  const params = parseWith(numberDetails, firstValues(await readParams(c)));
  const owner = await actingAccount(c.env, authOf(c), params.target_api_key);
  checkCountry(params.msisdn, params.country);
  if (!(await holdingsOf(c.env, owner).remove(params.msisdn))) throw methodFailed();
  // Back to the pool, free for anyone to rent again.
  await poolOf(c.env, params.country).release(params.msisdn, owner);
  return respond(c, SUCCESS, { root: 'response' });
});
