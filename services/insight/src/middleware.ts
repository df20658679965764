import {
  type AccountsRpc,
  ApiError,
  authenticate,
  cachedCredentials,
  errorStyle,
  type FamilyEnv,
  negotiateFormat,
  readParams,
  rpc,
} from '@comms/core';
import { createMiddleware } from 'hono/factory';
import { type Endpoint, insightError, insightStyle, STATUS } from './status';

export type InsightEnv = FamilyEnv<Env>;

/** The accounts service: credentials, throughput and the ledger. */
export function accounts(env: Env): AccountsRpc {
  return rpc<AccountsRpc>(env.ACCOUNTS);
}

/** JSON or XML by the `:format` segment; any other format is an unknown path (404). */
const pathFormat = createMiddleware<InsightEnv>(async (c, next) => {
  c.set('format', negotiateFormat(c, c.req.param('format')));
  await next();
});

/**
 * Reads the parameters (query, form or JSON body) before anything needs them, so that a body that
 * cannot be parsed is status 999, "request unparseable", rather than a missing parameter.
 */
const readRequest = createMiddleware<InsightEnv>(async (c, next) => {
  try {
    await readParams(c);
  } catch (err) {
    if (err instanceof ApiError) throw insightError(STATUS.unparsable, `Request unparseable: ${err.detail}`);
    throw err;
  }
  await next();
});

/** Key and secret (query, form, JSON or Basic) or a signed request, checked by the accounts service. */
const auth = authenticate({
  modes: ['key-secret', 'signature'],
  store: (c) => cachedCredentials(accounts(c.env as Env)),
});

/**
 * What runs before every Number Insight endpoint, in order: the format, the family's error style,
 * the parameters and authentication. Throughput is taken with the charge, in one step (`performLookup`).
 *
 * @example
 * app.on(['GET', 'POST'], '/ni/basic/:format', ...insightRoute('basic'), handler)
 */
export function insightRoute(endpoint: Endpoint) {
  return [pathFormat, errorStyle(insightStyle(endpoint)), readRequest, auth] as const;
}
