import { ApiError, authOf, httpUrl, parseWith, readParams, respond, verifyCallbackUrl } from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import type { NumberConfig } from '../durable/holdings';
import type { NumbersEnv } from '../middleware';
import { accounts, holdingsOf } from '../numbers';
import { firstValues } from './params';
import { actingAccount, checkCountry, methodFailed, numberDetails } from './purchase';

/** `POST /number/update` (spec 4.2): a rented number's application and callbacks. */
export const update = new Hono<NumbersEnv>();

const emptyOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]);

const body = numberDetails.extend({
  app_id: emptyOr(z.string().uuid('Must be an application id')).optional(),
  moHttpUrl: z.string().optional(),
  moSmppSysType: z.string().max(50).optional(),
  voiceCallbackType: emptyOr(z.enum(['sip', 'tel', 'app'])).optional(),
  voiceCallbackValue: z.string().max(200).optional(),
  voiceStatusCallback: emptyOr(httpUrl).optional(),
  messagesCallbackType: emptyOr(z.literal('app')).optional(),
  messagesCallbackValue: emptyOr(z.string().uuid('Must be an application id')).optional(),
});

update.post('/number/update', async (c) => {
  const params = parseWith(body, firstValues(await readParams(c)));
  const owner = await actingAccount(c.env, authOf(c), params.target_api_key);
  checkCountry(params.msisdn, params.country);
  if ((params.voiceCallbackType ?? '') !== '' && !params.voiceCallbackValue) {
    throw new ApiError({
      kind: 'validation',
      label: 'voiceCallbackValue is required with voiceCallbackType',
    });
  }
  for (const appId of [params.app_id, params.messagesCallbackValue]) {
    if (appId) await requireOwnApplication(c.env, owner, appId);
  }
  // The URL must answer 200 to a GET before it is saved; an empty string removes it.
  if (params.moHttpUrl) await verifyCallbackUrl('moHttpUrl', params.moHttpUrl);
  const config: NumberConfig = {
    appId:
      params.app_id ?? (params.messagesCallbackType === 'app' ? params.messagesCallbackValue : undefined),
    moHttpUrl: params.moHttpUrl,
    moSmppSysType: params.moSmppSysType,
    voiceCallbackType: params.voiceCallbackType,
    voiceCallbackValue: params.voiceCallbackValue,
    voiceStatusCallback: params.voiceStatusCallback,
    messagesCallbackType: params.messagesCallbackType,
    messagesCallbackValue: params.messagesCallbackValue,
  };
  if (!(await holdingsOf(c.env, owner).configure(params.msisdn, config))) throw methodFailed();
  return respond(c, { 'error-code': '200', 'error-code-label': 'success' }, { root: 'response' });
});

/** An application can be linked only by the account that owns it (or that account's primary). */
async function requireOwnApplication(env: Env, owner: string, appId: string) {
  const app = await accounts(env).applicationKey(appId);
  if (
    !app ||
    (app.apiKey !== owner && app.primaryApiKey !== owner && app.apiKey !== (await primaryOf(env, owner)))
  ) {
    throw new ApiError({
      kind: 'validation',
      label: `app_id '${appId}' is not an application of this account`,
    });
  }
}

async function primaryOf(env: Env, apiKey: string): Promise<string | null> {
  return (await accounts(env).identity(apiKey))?.primaryApiKey ?? null;
}
