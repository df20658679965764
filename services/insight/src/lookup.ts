import { type Amount, type AppContext, authOf, type TransactResult, uuid } from '@comms/core';
import { callerOf, cnamAvailable, findNumber, type Insight, ipMatch, liveLookupStatus } from './insight';
import { accounts } from './middleware';
import type { LookupParams } from './params';
import { type Level, quote } from './pricing';
import { usageRecord } from './record';
import { type InsightStatus, insightError, STATUS } from './status';

/** Why the ledger refused a lookup, as the family's status. */
const REFUSAL: Readonly<Record<Exclude<TransactResult, { ok: true }>['reason'], [InsightStatus, string]>> = {
  throttled: [STATUS.throttled, 'Busy: more than 30 requests in the last second; please retry'],
  'demo-mode': [
    STATUS.facilityNotAllowed,
    'Facility not allowed: standard and advanced lookups are not available to an account in demo mode',
  ],
  'insufficient-funds': [
    STATUS.insufficientCredit,
    'Partner quota exceeded: insufficient credit for this lookup',
  ],
  'no-account': [STATUS.invalidCredentials, 'The account no longer exists'],
};

/**
 * Takes one unit of the account's fixed allowance of 30 lookups a second (spec 8), refuses the paid
 * levels to an account in demo mode (status 19), debits the lookup and stores its usage record, all in
 * one atomic step of the ledger; answers the balance after it. Basic is free, so it is recorded with a
 * zero charge and open to demo accounts.
 */
async function settle(env: Env, apiKey: string, draft: Omit<Insight, 'balance'>): Promise<Amount> {
  const result = await accounts(env).transact(apiKey, {
    throughput: 'insight',
    refuseDemo: draft.level !== 'basic',
    charges: [
      {
        product: 'NUMBER-INSIGHT',
        id: draft.requestId,
        amount: draft.quote.charge,
        record: usageRecord(draft, apiKey, new Date()),
      },
    ],
  });
  if (result.ok) return result.balances[0]!;
  const [status, detail] = REFUSAL[result.reason];
  throw insightError(status, detail);
}

/**
 * One lookup for an authenticated request whose parameters are valid: the number directory, the
 * price, then throughput, demo mode and the charge in the ledger. Throws the family's status errors
 * (999 and 3 for the number, then 1, 19 and 9), and charges nothing when it does.
 *
 * @example
 * const insight = await performLookup(c, 'standard', { number: '+1 201 555 0123', cnam: true });
 */
export async function performLookup(
  c: AppContext<Env>,
  level: Level,
  params: LookupParams,
): Promise<Insight> {
  const info = findNumber(params);
  const status = liveLookupStatus(info, level);
  const draft: Omit<Insight, 'balance'> = {
    level,
    requestId: uuid(),
    status,
    info,
    caller: callerOf(info, level, params.cnam),
    quote: quote({
      level,
      cnam: params.cnam,
      cnamAvailable: cnamAvailable(info),
      lookupFailed: status === STATUS.liveLookupFailed,
    }),
    ...(level === 'advanced' && params.ip !== undefined ? { ip: ipMatch(params.ip, info) } : {}),
  };
  const balance = await settle(c.env, authOf(c).apiKey, draft);
  return { ...draft, balance };
}
