import { type AuthMode, authenticate, type FamilyEnv, negotiateFormat } from '@comms/core';
import { createMiddleware } from 'hono/factory';
import { credentialStore } from './accounts';

export type AccountsEnv = FamilyEnv<Env>;

/** Authentication against this service's own accounts. */
export function auth(modes: AuthMode[], options: { jsonParams?: boolean } = {}) {
  return authenticate({ modes, store: (c) => credentialStore(c.env as Env), ...options });
}

/** JSON or XML by the `Accept` header, for the legacy endpoints without a `:format` segment. */
export const acceptFormat = createMiddleware<AccountsEnv>(async (c, next) => {
  c.set('format', negotiateFormat(c));
  await next();
});
