import { WorkerEntrypoint } from 'cloudflare:workers';
import type {
  AccountIdentity,
  AccountSettings,
  AccountsRpc,
  AllowanceKind,
  ChargeRequest,
  ChargeResult,
  JsonObject,
  Product,
  RefundRequest,
  SandboxAccountInit,
  ThroughputKind,
  TransactRequest,
  TransactResult,
  UsagePage,
  UsagePageQuery,
  UsageQuery,
  UsageRecord,
  UsageReportingRpc,
  UsageSeed,
} from '@comms/core';
import { accountOf, createAccount, credentialStore, registryOf, resetAccounts } from './accounts';
import { app } from './app';
import { PERSONAL_FIELDS } from './personal-fields';

export { Account } from './durable/account';
export { Registry } from './durable/registry';

/** Record fields a page query may filter on: plain names only, as they become a JSON path. */
const RECORD_FIELD = /^[a-z][a-z_]{0,39}$/;

/** The accounts worker: its HTTP routes, and the ledger and credentials as RPC for its siblings. */
export default class AccountsService extends WorkerEntrypoint<Env> implements AccountsRpc, UsageReportingRpc {
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

  async applicationVoiceWebhooks(applicationId: string) {
    const owner = await registryOf(this.env).applicationOwner(applicationId);
    const app = owner ? await accountOf(this.env, owner).getApplication(applicationId) : null;
    if (!app) return null;
    const body = JSON.parse(app.body) as {
      capabilities?: { voice?: { webhooks?: Record<string, { address: string; http_method: string }> } };
    };
    const webhooks = body.capabilities?.voice?.webhooks ?? {};
    const pick = (name: 'answer_url' | 'fallback_answer_url' | 'event_url') =>
      webhooks[name]
        ? { [name]: { address: webhooks[name].address, http_method: webhooks[name].http_method } }
        : {};
    return { ...pick('answer_url'), ...pick('fallback_answer_url'), ...pick('event_url') };
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

  amendUsage(
    apiKey: string,
    request: { product: Product; id: string; record: JsonObject },
  ): Promise<boolean> {
    return accountOf(this.env, apiKey).amendUsage(
      request.product,
      request.id,
      request.record,
      PERSONAL_FIELDS,
    );
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

  async usagePage(apiKey: string, query: UsagePageQuery): Promise<UsagePage> {
    for (const field of Object.keys(query.fields ?? {})) {
      if (!RECORD_FIELD.test(field)) throw new RangeError(`Not a record field: ${field}`);
    }
    return accountOf(this.env, apiKey).usagePage(query);
  }

  secondaryAccounts(apiKey: string): Promise<string[]> {
    return registryOf(this.env).secondariesOf(apiKey);
  }

  takeAllowance(apiKey: string, kind: AllowanceKind): Promise<boolean> {
    return accountOf(this.env, apiKey).takeAllowance(kind);
  }

  redactionSettings(apiKey: string): Promise<{ waitSeconds: number | null } | null> {
    return accountOf(this.env, apiKey).redactionSettings();
  }

  async seedUsage(apiKey: string, seed: UsageSeed): Promise<number> {
    const valid =
      Number.isInteger(seed.count) &&
      seed.count >= 1 &&
      seed.count <= 100_000 &&
      Number.isFinite(seed.from) &&
      Number.isFinite(seed.to) &&
      seed.to > seed.from;
    if (!valid) throw new RangeError('count must be 1 to 100000 and the window must not be empty');
    return accountOf(this.env, apiKey).seedUsage(seed);
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
