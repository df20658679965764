import { authenticate, type FamilyEnv } from '@comms/core';
import { accounts } from './ledger';

export type ReportsEnv = FamilyEnv<Env>;

/** Reports take Basic authentication only (spec 5.1). */
export const basicAuth = authenticate({ modes: ['basic'], store: (c) => accounts(c.env as Env) });
