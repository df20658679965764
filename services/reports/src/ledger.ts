import { type AccountsRpc, type AuthContext, rpc, type UsagePage, type UsageReportingRpc } from '@comms/core';
import { notAuthorized } from './errors';
import type { ReportFilter } from './query';

/** The accounts service as reports use it: credentials, identities and the ledger's pages. */
export const accounts = (env: { ACCOUNTS: unknown }) => rpc<AccountsRpc & UsageReportingRpc>(env.ACCOUNTS);

/**
 * Refuses (403) a report on an account that is neither the caller's nor one of its secondary
 * accounts: a primary account reads its secondaries' records with its own credentials.
 */
export async function checkAccess(env: Env, auth: AuthContext, accountId: string): Promise<void> {
  if (accountId === auth.apiKey) return;
  const target = await accounts(env).identity(accountId);
  if (target?.primaryApiKey !== auth.apiKey) throw notAuthorized();
}

/** One page of the ledger's records of an account for a report's filters, from `after` on. */
export function ledgerPage(
  env: Env,
  accountId: string,
  filter: ReportFilter,
  after: UsagePage['next'],
  limit: number,
): Promise<UsagePage> {
  return accounts(env).usagePage(accountId, {
    product: filter.product,
    ...(filter.direction ? { direction: filter.direction } : {}),
    ...(filter.ids ? { ids: filter.ids } : {}),
    ...(filter.dateStart ? { from: filter.dateStart.ms } : {}),
    ...(filter.dateEnd ? { to: filter.dateEnd.ms } : {}),
    ...(filter.status ? { fields: { status: filter.status } } : {}),
    ...(after ? { after } : {}),
    limit,
  });
}
