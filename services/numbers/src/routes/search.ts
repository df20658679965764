import {
  acceptFormat,
  countryAlpha2,
  errorStyle,
  formatAmount,
  legacyStyle,
  parseWith,
  readParams,
  respond,
} from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Feature } from '../inventory';
import { auth, type NumbersEnv } from '../middleware';
import { noteState, poolOf } from '../numbers';
import { firstValues, pagingParams, searchPatternParam } from './params';

/** `GET /number/search` (spec 4.2): numbers for rent in a country. */
export const search = new Hono<NumbersEnv>();

const FEATURES = ['SMS', 'VOICE', 'MMS'] as const;

const query = z
  .object({
    country: countryAlpha2,
    type: z.enum(['landline', 'mobile-lvn', 'landline-toll-free']).optional(),
    pattern: z
      .string()
      .regex(/^\d{1,15}$/, 'Must be digits')
      .optional(),
    search_pattern: searchPatternParam,
    features: z
      .string()
      .transform((s) => s.split(',').map((f) => f.trim().toUpperCase()))
      .refine(
        (list) => list.every((f) => (FEATURES as readonly string[]).includes(f)),
        'Must be SMS, VOICE, MMS or a comma list of them',
      )
      .optional(),
  })
  .extend(pagingParams);

search.get(
  '/number/search',
  acceptFormat,
  errorStyle(legacyStyle({ root: 'inbound-numbers' })),
  auth(),
  async (c) => {
    const params = parseWith(query, firstValues(await readParams(c)));
    const result = await poolOf(c.env, params.country).search(params.country, {
      ...(params.type ? { type: params.type } : {}),
      ...(params.pattern ? { pattern: params.pattern } : {}),
      searchPattern: params.search_pattern,
      features: (params.features ?? []) as Feature[],
      offset: (params.index - 1) * params.size,
      limit: params.size,
    });
    await noteState(c.env, 'pool', params.country);
    const numbers = result.numbers.map((n) => ({
      country: params.country,
      msisdn: n.msisdn,
      type: n.type,
      cost: formatAmount(n.cost, 2),
      features: n.features,
    }));
    return respond(
      c,
      { count: result.count, numbers },
      { root: 'inbound-numbers', xml: { count: result.count, numbers: { number: numbers.map(xmlNumber) } } },
    );
  },
);

/** In XML each feature is its own element. */
export function xmlNumber<T extends { features: string[] }>(n: T) {
  return { ...n, features: { feature: n.features } };
}
