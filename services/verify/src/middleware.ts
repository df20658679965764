import { authenticate, authOf, errorStyle, type FamilyEnv, negotiateFormat } from '@comms/core';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { accounts } from './objects';
import type { Endpoint } from './render';
import { STATUS_TEXT, VERIFY_STATUS, VerifyRefusal, verifyStyle } from './status';

/** The `:format` segment (`json`, `xml`) decides the answer's format. */
const pathFormat = createMiddleware<FamilyEnv<Env>>(async (c, next) => {
  c.set('format', negotiateFormat(c, c.req.param('format') ?? 'json'));
  await next();
});

/**
 * What every verify endpoint runs before its handler: its own error body, the path's format, and
 * key/secret authentication (query, form, JSON or Basic; spec 4.6 "auth Q").
 *
 * @example
 * check.use('/verify/check/:format', ...endpoint('check'));
 */
export function endpoint(name: Endpoint) {
  return [
    errorStyle(verifyStyle(name)),
    pathFormat,
    authenticate({ modes: ['key-secret'], store: (c) => accounts(c.env as Env) }),
  ] as const;
}

/**
 * Takes one of the account's 30 verify calls a second (spec 8), refusing with status 1 beyond them.
 * A new request takes its unit with its charge instead, in one step of the ledger.
 */
export async function throttle(c: Context<FamilyEnv<Env>>): Promise<void> {
  if (!(await accounts(c.env).takeThroughput(authOf(c).apiKey, 'verify'))) {
    throw new VerifyRefusal(VERIFY_STATUS.throttled, STATUS_TEXT.throttled);
  }
}

/** Request ids are 32 hex characters; anything else was never one, and needs no object to say so. */
export function isRequestId(id: string): boolean {
  return /^[0-9a-f]{32}$/.test(id);
}
