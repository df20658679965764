import { ApiError, authenticate, ERROR_TYPES } from '@comms/core';
import type { Context } from 'hono';
import type { LegOutcome } from '../durable/call-leg';
import { accounts, legOf } from '../objects';
import { isUuid } from '../sandbox';

/** Voice takes application JWTs only (spec 5). */
export const jwtOnly = authenticate({ modes: ['jwt'], store: (c) => accounts(c.env as Env) });

/** The leg a path names, or a 404 when the name cannot be a call's. */
export function leg(env: Env, uuid: string) {
  if (!isUuid(uuid)) throw notFound(uuid);
  return legOf(env, uuid);
}

export function notFound(uuid: string): ApiError {
  return new ApiError({
    kind: 'not-found',
    type: ERROR_TYPES.notFound,
    detail: `Call '${uuid}' was not found`,
  });
}

/** Throws the API's answer to a control the leg refused: 404 unknown, 400 not in progress. */
export function refused(outcome: LegOutcome, uuid: string): void {
  if (outcome.ok) return;
  if (outcome.reason === 'not-found') throw notFound(uuid);
  throw new ApiError({ kind: 'validation', detail: outcome.detail });
}

/** The JSON body, or a 400 problem when there is none or it is not JSON. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({
      kind: 'validation',
      detail: 'The request body is not valid JSON',
      invalidParameters: [{ name: 'body', reason: 'Must be JSON' }],
    });
  }
}
