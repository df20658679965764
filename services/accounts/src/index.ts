import { WorkerEntrypoint } from 'cloudflare:workers';
import type {
  AccountIdentity,
  AccountSettings,
  AccountsRpc,
  ChargeRequest,
  ChargeResult,
  JsonObject,
  Product,
  RefundRequest,
  SandboxAccountInit,
  ThroughputKind,
  TransactRequest,
  TransactResult,
  UsageQuery,
  UsageRecord,
} from '@comms/core';
import { accountOf, createAccount, credentialStore, resetAccounts } from './accounts';
import { app } from './app';
import { PERSONAL_FIELDS } from './personal-fields';

export { Account } from './durable/account';
export { Registry } from './durable/registry';

/** The accounts worker: its HTTP routes, and the ledger and credentials as RPC for its siblings. */
export default class AccountsService extends WorkerEntrypoint<Env> implements AccountsRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  verifySecret(apiKey: string, secret: string) {
    return credentialStore(this.env).verifySecret(apiKey, secret);
  }

  signatureSettings(apiKey: string) {
    return credentialStore(this.env).signatureSettings(apiKey);
  }

  applicationKey(applicationId: string) {
    return credentialStore(this.env).applicationKey(applicationId);
  }

  identity(apiKey: string): Promise<AccountIdentity | null> {
    return accountOf(this.env, apiKey).identity();
  }

  charge(apiKey: string, request: ChargeRequest): Promise<ChargeResult> {
    return accountOf(this.env, apiKey).charge(request);
  }

  transact(apiKey: string, request: TransactRequest): Promise<TransactResult> {
    return accountOf(this.env, apiKey).transact(request);
  }

  refund(apiKey: string, request: RefundRequest): Promise<ChargeResult> {
    return accountOf(this.env, apiKey).refund(request);
  }

  async usage(apiKey: string, query: UsageQuery): Promise<UsageRecord[]> {
    const rows = await accountOf(this.env, apiKey).usage(query);
    return rows.map((row) => ({ ...row, record: JSON.parse(row.record) as JsonObject }));
  }

  redactUsage(apiKey: string, id: string, product: Product): Promise<boolean> {
    return accountOf(this.env, apiKey).redactUsage(id, product, PERSONAL_FIELDS);
  }

  takeThroughput(apiKey: string, kind: ThroughputKind): Promise<boolean> {
    return accountOf(this.env, apiKey).takeThroughput(kind);
  }

  settings(apiKey: string): Promise<AccountSettings | null> {
    return accountOf(this.env, apiKey).settings();
  }

  flags(apiKey: string) {
    return accountOf(this.env, apiKey).flags();
  }

  async signingSecret(apiKey: string) {
    const settings = await accountOf(this.env, apiKey).signatureSettings();
    return settings
      ? { secret: settings.secret, method: settings.method, signWebhooks: settings.signWebhooks }
      : null;
  }

  createSandboxAccount(init: SandboxAccountInit) {
    return createAccount(this.env, init);
  }

  reset(): Promise<void> {
    return resetAccounts(this.env);
  }
}
