import {
  acceptFormat,
  authOf,
  countryAlpha2,
  errorStyle,
  formBoolean,
  legacyStyle,
  parseWith,
  readParams,
  respond,
} from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Holding } from '../durable/holdings';
import { auth, type NumbersEnv } from '../middleware';
import { holdingsOf } from '../numbers';
import { firstValues, pagingParams, searchPatternParam } from './params';
import { xmlNumber } from './search';

/** `GET /account/numbers` (spec 4.2, 2.2): the numbers an account rents. */
export const owned = new Hono<NumbersEnv>();

const query = z
  .object({
    application_id: z.string().min(1).optional(),
    has_application: formBoolean.optional(),
    country: countryAlpha2.optional(),
    pattern: z
      .string()
      .regex(/^\d{1,15}$/, 'Must be digits')
      .optional(),
    search_pattern: searchPatternParam,
  })
  .extend(pagingParams);

/** An owned number as the API shows it: fields that were never set are left out. */
export function ownedNumberBody(n: Holding) {
  return {
    country: n.country,
    msisdn: n.msisdn,
    ...(n.moHttpUrl ? { moHttpUrl: n.moHttpUrl } : {}),
    type: n.type,
    features: n.features,
    ...(n.appId ? { app_id: n.appId } : {}),
    ...(n.messagesCallbackType ? { messagesCallbackType: n.messagesCallbackType } : {}),
    ...(n.messagesCallbackValue ? { messagesCallbackValue: n.messagesCallbackValue } : {}),
    ...(n.voiceCallbackType ? { voiceCallbackType: n.voiceCallbackType } : {}),
    ...(n.voiceCallbackValue ? { voiceCallbackValue: n.voiceCallbackValue } : {}),
    ...(n.voiceStatusCallback ? { voiceStatusCallback: n.voiceStatusCallback } : {}),
  };
}

owned.get(
  '/account/numbers',
  acceptFormat,
  errorStyle(legacyStyle({ root: 'inbound-numbers' })),
  auth(),
  async (c) => {
    const params = parseWith(query, firstValues(await readParams(c)));
    const { apiKey } = authOf(c);
    const result = await holdingsOf(c.env, apiKey).list(apiKey, {
      ...(params.country ? { country: params.country } : {}),
      ...(params.application_id ? { applicationId: params.application_id } : {}),
      ...(params.has_application !== undefined ? { hasApplication: params.has_application } : {}),
      ...(params.pattern ? { pattern: params.pattern } : {}),
      searchPattern: params.search_pattern,
      offset: (params.index - 1) * params.size,
      limit: params.size,
    });
    const numbers = result.numbers.map(ownedNumberBody);
    return respond(
      c,
      { count: result.count, numbers },
      { root: 'inbound-numbers', xml: { count: result.count, numbers: { number: numbers.map(xmlNumber) } } },
    );
  },
);
