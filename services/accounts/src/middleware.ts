import { type AuthMode, authenticate, type FamilyEnv } from '@comms/core';
import { credentialStore } from './accounts';

export type AccountsEnv = FamilyEnv<Env>;

/** Authentication against this service's own accounts. */
export function auth(modes: AuthMode[], options: { jsonParams?: boolean } = {}) {
  return authenticate({ modes, store: (c) => credentialStore(c.env as Env), ...options });
}
