import { formBoolean, httpUrl, type Params, parseWith } from '@comms/core';
import { countryByCode } from '@comms/network';
import { z } from 'zod';
import type { Endpoint } from './status';

/** What a lookup was asked for, after validation. */
export interface LookupParams {
  /** As given: national or international, with any spaces, `-`, `+`, `(` and `)`. */
  number: string;
  /** Upper-case alpha-2, when given. */
  country?: string;
  /** Caller name wanted (standard and advanced). */
  cnam: boolean;
  /** The deprecated IPv4 address to match against the number's country (advanced). */
  ip?: string;
  /** Where the asynchronous result goes. */
  callback?: string;
}

/** The asynchronous endpoint's parameters always carry `callback`. */
export type ParamsOf<E extends Endpoint> = E extends 'async'
  ? LookupParams & { callback: string }
  : LookupParams;

/** An empty form field counts as absent, as the vendor treats it. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const number = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  // The reference's pattern: digits and the separators people type, nothing else.
  .regex(/^[0-9\-+()\s]+$/, 'Must contain only digits, white space, -, +, ( and )');

const country = z
  .string()
  .regex(/^[A-Z]{2}$/, 'Must be an upper-case ISO 3166-1 alpha-2 country code')
  .refine((code) => countryByCode(code) !== undefined, 'Unknown country code');

const BASE = { number, country: optional(country) };
// The official Node SDK sends `cname` (its option's spelling) where the API says `cnam`; both count.
const CNAM = { cnam: optional(formBoolean), cname: optional(formBoolean) };

const SCHEMAS: Readonly<Record<Endpoint, z.ZodType<Record<string, unknown>>>> = {
  // `cnam` is accepted by basic but means nothing there (spec 4.4).
  basic: z.object(BASE),
  standard: z.object({ ...BASE, ...CNAM }),
  advanced: z.object({ ...BASE, ...CNAM, ip: optional(z.ipv4('Must be an IPv4 address')) }),
  async: z.object({
    ...BASE,
    ...CNAM,
    ip: optional(z.ipv4('Must be an IPv4 address')),
    callback: z.string({ error: 'Required' }).pipe(httpUrl),
  }),
};

function firstValues(params: Params): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
}

/**
 * Validates an endpoint's parameters; a failure is a validation ApiError, which the family's style
 * answers with status 3.
 *
 * @example
 * lookupParams('standard', { number: '+1 201 555 0123', cnam: 'true' }) // { number: '+1 201 555 0123', cnam: true }
 */
export function lookupParams<E extends Endpoint>(endpoint: E, params: Params): ParamsOf<E> {
  const parsed = parseWith(SCHEMAS[endpoint], firstValues(params)) as {
    number: string;
    country?: string;
    cnam?: boolean;
    cname?: boolean;
    ip?: string;
    callback?: string;
  };
  return {
    number: parsed.number,
    ...(parsed.country !== undefined ? { country: parsed.country } : {}),
    cnam: parsed.cnam ?? parsed.cname ?? false,
    ...(parsed.ip !== undefined ? { ip: parsed.ip } : {}),
    ...(parsed.callback !== undefined ? { callback: parsed.callback } : {}),
  } as ParamsOf<E>;
}
