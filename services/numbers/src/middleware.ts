import { type AuthMode, authenticate, type FamilyEnv } from '@comms/core';
import { accounts } from './numbers';

export type NumbersEnv = FamilyEnv<Env>;

/** Authentication through the accounts service. */
export function auth(modes: AuthMode[] = ['key-secret', 'signature']) {
  return authenticate({ modes, store: (c) => accounts(c.env as Env) });
}
