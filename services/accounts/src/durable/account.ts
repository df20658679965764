import { DurableObject } from 'cloudflare:workers';
import type {
  AccountIdentity,
  AccountSettings,
  AllowanceKind,
  Amount,
  ChargeRequest,
  ChargeResult,
  JsonObject,
  Product,
  RefundRequest,
  SignatureMethod,
  ThroughputKind,
  TransactRequest,
  TransactResult,
  UsagePage,
  UsagePageQuery,
  UsageQuery,
  UsageRecord,
  UsageSeed,
} from '@comms/core';
import { GroupCommit, migrate, sha256Hex } from '@comms/core';
import { RECEIPT_ERR, RECEIPT_ERR_DESCRIPTIONS } from '@comms/network';

/** Schema steps; the schema version is how many have been applied. Never edit one, only append. */
const MIGRATIONS = [
  `
      CREATE TABLE IF NOT EXISTS account (
        api_key TEXT PRIMARY KEY,
        primary_api_key TEXT,
        balance INTEGER NOT NULL,
        auto_reload INTEGER NOT NULL,
        reload_amount INTEGER NOT NULL,
        signature_secret TEXT NOT NULL,
        signature_method TEXT NOT NULL,
        mo_callback_url TEXT NOT NULL DEFAULT '',
        dr_callback_url TEXT NOT NULL DEFAULT '',
        max_outbound_request INTEGER NOT NULL,
        max_inbound_request INTEGER NOT NULL,
        max_calls_per_second INTEGER NOT NULL,
        demo_mode INTEGER NOT NULL DEFAULT 0,
        pin_code_allowed INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS secrets (
        id TEXT PRIMARY KEY,
        salt TEXT NOT NULL,
        hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS applications (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        body TEXT NOT NULL,
        public_key TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS usage (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL,
        product TEXT NOT NULL,
        direction TEXT,
        amount INTEGER NOT NULL,
        balance_after INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        record TEXT NOT NULL,
        redacted INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS usage_by_product_time ON usage (product, direction, created_at);
      CREATE INDEX IF NOT EXISTS usage_by_id ON usage (id);
      CREATE TABLE IF NOT EXISTS top_ups (
        trx TEXT NOT NULL,
        amount INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
  `,
  'ALTER TABLE account ADD COLUMN sign_webhooks INTEGER NOT NULL DEFAULT 0',
  // Reports page through a product's records in time order with or without a direction.
  `ALTER TABLE account ADD COLUMN redact_after_seconds INTEGER;
   ALTER TABLE account ADD COLUMN rate_limits TEXT NOT NULL DEFAULT '{}';
   CREATE INDEX IF NOT EXISTS usage_by_product_created ON usage (product, created_at);`,
];
const MAX_SECRETS = 2;
/** How long a seeded SMS took to reach the handset. */
const SEED_LATENCY_MS = 1000;
/** What a seeded SMS part costs, as a GB message does. */
const SEED_PRICE = 3_330_000;
const DEFAULT_THROUGHPUT = 30;

export interface AccountInit {
  apiKey: string;
  secret: string;
  signatureSecret: string;
  signatureMethod: SignatureMethod;
  balance: Amount;
  autoReload: boolean;
  primaryApiKey: string | null;
  demoMode: boolean;
  pinCodeAllowed: boolean;
  signWebhooks: boolean;
  /** Seconds before redaction is allowed; null for the redact service's default. */
  redactAfterSeconds?: number | null;
  rateLimits?: Partial<Record<AllowanceKind, number>>;
  throughput: Partial<
    Pick<AccountSettings, 'max-outbound-request' | 'max-inbound-request' | 'max-calls-per-second'>
  >;
}

export interface SecretInfo {
  id: string;
  created_at: string;
}

export interface StoredApplication {
  id: string;
  name: string;
  /** The application as the API shows it (JSON text), without `keys.private_key`. */
  body: string;
  publicKey: string;
  createdAt: number;
}

/** A usage record as stored: the product fields stay JSON text until they leave the service. */
export type StoredUsage = Omit<UsageRecord, 'record'> & { record: string };

export type DeleteSecretResult = 'deleted' | 'not-found' | 'last-secret';

interface AccountRow extends Record<string, SqlStorageValue> {
  api_key: string;
  primary_api_key: string | null;
  balance: number;
  auto_reload: number;
  reload_amount: number;
  signature_secret: string;
  signature_method: string;
  mo_callback_url: string;
  dr_callback_url: string;
  max_outbound_request: number;
  max_inbound_request: number;
  max_calls_per_second: number;
  demo_mode: number;
  pin_code_allowed: number;
  sign_webhooks: number;
  redact_after_seconds: number | null;
  rate_limits: string;
}

/** A usage row as reports read it, refunds of its transaction summed into `refunded`. */
interface ReportRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  product: string;
  direction: string | null;
  amount: number;
  refunded: number;
  created_at: number;
  record: string;
  redacted: number;
}

/** Per-second allowance of each throughput kind, beyond the settings' three. */
const FIXED_LIMITS: Partial<Record<ThroughputKind, number>> = { pricing: 1, verify: 30, insight: 30 };

/** The vendor's per-second limits of synchronous reports and redact (spec 8, redact reference). */
const DEFAULT_ALLOWANCES: Record<AllowanceKind, number> = { reports: 10, redact: 170 };

/**
 * One account (API key): its secrets, balance and usage ledger, settings and applications.
 * Every debit runs inside this object, so concurrent charges serialise and the balance is exact.
 */
export class Account extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Grant times of the last second per throughput kind; in memory on purpose, as a window outlives no restart. */
  private readonly windows = new Map<ThroughputKind | `allowance:${AllowanceKind}`, number[]>();
  private readonly transactions: GroupCommit<TransactRequest, TransactResult>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.transactions = new GroupCommit(ctx.storage, (request) => this.transactNow(request));
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  private row(): AccountRow | undefined {
    return this.sql.exec<AccountRow>('SELECT * FROM account').toArray()[0];
  }

  async create(init: AccountInit): Promise<boolean> {
    if (this.row()) return false;
    this.sql.exec(
      `INSERT INTO account (api_key, primary_api_key, balance, auto_reload, reload_amount, signature_secret,
         signature_method, max_outbound_request, max_inbound_request, max_calls_per_second, demo_mode,
         pin_code_allowed, sign_webhooks, redact_after_seconds, rate_limits, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      init.apiKey,
      init.primaryApiKey,
      init.balance,
      init.autoReload ? 1 : 0,
      init.balance,
      init.signatureSecret,
      init.signatureMethod,
      init.throughput['max-outbound-request'] ?? DEFAULT_THROUGHPUT,
      init.throughput['max-inbound-request'] ?? DEFAULT_THROUGHPUT,
      init.throughput['max-calls-per-second'] ?? DEFAULT_THROUGHPUT,
      init.demoMode ? 1 : 0,
      init.pinCodeAllowed ? 1 : 0,
      init.signWebhooks ? 1 : 0,
      init.redactAfterSeconds ?? null,
      JSON.stringify(init.rateLimits ?? {}),
      Date.now(),
    );
    await this.addSecret(init.secret);
    return true;
  }

  identity(): AccountIdentity | null {
    const row = this.row();
    return row ? { apiKey: row.api_key, primaryApiKey: row.primary_api_key } : null;
  }

  // ---- secrets ---------------------------------------------------------------------------

  async verifySecret(secret: string): Promise<AccountIdentity | null> {
    const identity = this.identity();
    if (!identity) return null;
    const rows = this.sql.exec<{ salt: string; hash: string }>('SELECT salt, hash FROM secrets').toArray();
    let match = false;
    // Hash against every secret so that the time taken does not depend on which one matched.
    for (const row of rows) {
      if (timingSafeEqualHex(await hashSecret(row.salt, secret), row.hash)) match = true;
    }
    return match ? identity : null;
  }

  signatureSettings(): {
    identity: AccountIdentity;
    secret: string;
    method: SignatureMethod;
    signWebhooks: boolean;
  } | null {
    const row = this.row();
    if (!row) return null;
    return {
      identity: { apiKey: row.api_key, primaryApiKey: row.primary_api_key },
      secret: row.signature_secret,
      method: row.signature_method as SignatureMethod,
      signWebhooks: row.sign_webhooks === 1,
    };
  }

  listSecrets(): SecretInfo[] {
    return this.sql
      .exec<{ id: string; created_at: number }>('SELECT id, created_at FROM secrets ORDER BY created_at, id')
      .toArray()
      .map(secretInfo);
  }

  getSecret(id: string): SecretInfo | null {
    const row = this.sql
      .exec<{ id: string; created_at: number }>('SELECT id, created_at FROM secrets WHERE id = ?', id)
      .toArray()[0];
    return row ? secretInfo(row) : null;
  }

  async createSecret(
    secret: string,
  ): Promise<{ ok: true; secret: SecretInfo } | { ok: false; reason: 'limit' }> {
    const count = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM secrets').one().n;
    if (count >= MAX_SECRETS) return { ok: false, reason: 'limit' };
    return { ok: true, secret: await this.addSecret(secret) };
  }

  private async addSecret(secret: string): Promise<SecretInfo> {
    const id = crypto.randomUUID();
    const salt = crypto.randomUUID();
    // Seconds precision, as the API shows creation times.
    const createdAt = Math.floor(Date.now() / 1000) * 1000;
    this.sql.exec(
      'INSERT INTO secrets (id, salt, hash, created_at) VALUES (?, ?, ?, ?)',
      id,
      salt,
      await hashSecret(salt, secret),
      createdAt,
    );
    return secretInfo({ id, created_at: createdAt });
  }

  deleteSecret(id: string): DeleteSecretResult {
    const exists = this.sql.exec('SELECT id FROM secrets WHERE id = ?', id).toArray().length > 0;
    if (!exists) return 'not-found';
    const count = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM secrets').one().n;
    if (count <= 1) return 'last-secret';
    this.sql.exec('DELETE FROM secrets WHERE id = ?', id);
    return 'deleted';
  }

  // ---- balance, top-up and settings --------------------------------------------------------

  balance(): { value: Amount; autoReload: boolean } | null {
    const row = this.row();
    return row ? { value: row.balance, autoReload: row.auto_reload === 1 } : null;
  }

  topUp(trx: string): { ok: true; balance: Amount } | { ok: false; reason: 'not-auto-reload' } {
    const row = this.row();
    if (row?.auto_reload !== 1) return { ok: false, reason: 'not-auto-reload' };
    this.sql.exec('UPDATE account SET balance = balance + reload_amount');
    this.sql.exec(
      'INSERT INTO top_ups (trx, amount, created_at) VALUES (?, ?, ?)',
      trx,
      row.reload_amount,
      Date.now(),
    );
    return { ok: true, balance: row.balance + row.reload_amount };
  }

  settings(): AccountSettings | null {
    const row = this.row();
    return row ? settingsOf(row) : null;
  }

  updateSettings(change: { mo?: string; dr?: string }): AccountSettings | null {
    if (change.mo !== undefined) this.sql.exec('UPDATE account SET mo_callback_url = ?', change.mo);
    if (change.dr !== undefined) this.sql.exec('UPDATE account SET dr_callback_url = ?', change.dr);
    return this.settings();
  }

  flags(): { demoMode: boolean; pinCodeAllowed: boolean } | null {
    const row = this.row();
    return row ? { demoMode: row.demo_mode === 1, pinCodeAllowed: row.pin_code_allowed === 1 } : null;
  }

  // ---- throughput --------------------------------------------------------------------------

  takeThroughput(kind: ThroughputKind): boolean {
    const row = this.row();
    return row ? this.takeThroughputOf(row, kind) : false;
  }

  private takeThroughputOf(row: AccountRow, kind: ThroughputKind): boolean {
    const limit =
      kind === 'outbound-sms'
        ? row.max_outbound_request
        : kind === 'inbound-sms'
          ? row.max_inbound_request
          : kind === 'calls'
            ? row.max_calls_per_second
            : (FIXED_LIMITS[kind] ?? DEFAULT_THROUGHPUT);
    return this.grant(kind, limit);
  }

  /** One unit of the sync reports or redact allowance: the vendor's limit unless the sandbox set one. */
  takeAllowance(kind: AllowanceKind): boolean {
    const row = this.row();
    if (!row) return false;
    const limits = JSON.parse(row.rate_limits) as Partial<Record<AllowanceKind, number>>;
    return this.grant(`allowance:${kind}`, limits[kind] ?? DEFAULT_ALLOWANCES[kind]);
  }

  /**
   * A sliding window: at most `limit` grants within any 1000 ms, so a burst that straddles a
   * second boundary gets no double allowance.
   */
  private grant(window: ThroughputKind | `allowance:${AllowanceKind}`, limit: number): boolean {
    const now = Date.now();
    let recent = this.windows.get(window);
    if (!recent) {
      recent = [];
      this.windows.set(window, recent);
    }
    // Oldest first: drop from the front what left the window (cheap, however high the limit).
    while (recent.length > 0 && now - recent[0]! >= 1000) recent.shift();
    if (recent.length >= limit) return false;
    recent.push(now);
    return true;
  }

  redactionSettings(): { waitSeconds: number | null } | null {
    const row = this.row();
    return row ? { waitSeconds: row.redact_after_seconds } : null;
  }

  // ---- ledger ------------------------------------------------------------------------------

  charge(request: ChargeRequest): ChargeResult {
    const row = this.row();
    if (!row) return { ok: false, reason: 'no-account', balance: 0 };
    if (!Number.isSafeInteger(request.amount) || request.amount < 0) throw new RangeError('Invalid amount');
    if (row.balance < request.amount)
      return { ok: false, reason: 'insufficient-funds', balance: row.balance };
    const balance = row.balance - request.amount;
    this.sql.exec('UPDATE account SET balance = ?', balance);
    const recordId = this.insertUsage(request, request.amount, balance);
    return { ok: true, balance, recordId };
  }

  /**
   * Throughput, demo mode and every charge in one step: all of it happens, or none. The hot path of
   * SMS and verify: steps that arrive together share one commit.
   */
  transact(request: TransactRequest): Promise<TransactResult> {
    return this.transactions.run(request);
  }

  private transactNow(request: TransactRequest): TransactResult {
    const row = this.row();
    if (!row) return { ok: false, reason: 'no-account', balance: 0 };
    if (request.throughput && !this.takeThroughputOf(row, request.throughput)) {
      return { ok: false, reason: 'throttled', balance: row.balance };
    }
    if (request.refuseDemo && row.demo_mode === 1)
      return { ok: false, reason: 'demo-mode', balance: row.balance };
    let total = 0;
    for (const charge of request.charges) {
      if (!Number.isSafeInteger(charge.amount) || charge.amount < 0) throw new RangeError('Invalid amount');
      total += charge.amount;
    }
    if (row.balance < total) return { ok: false, reason: 'insufficient-funds', balance: row.balance };
    let balance = row.balance;
    const balances: Amount[] = [];
    for (const charge of request.charges) {
      balance -= charge.amount;
      this.insertUsage(charge, charge.amount, balance);
      balances.push(balance);
    }
    this.sql.exec('UPDATE account SET balance = ?', balance);
    return { ok: true, balances, settings: settingsOf(row) };
  }

  amendUsage(product: Product, id: string, fields: JsonObject, personalFields: string[]): boolean {
    const rows = this.sql
      .exec<{ seq: number; record: string; redacted: number }>(
        'SELECT seq, record, redacted FROM usage WHERE id = ? AND product = ? AND amount >= 0',
        id,
        product,
      )
      .toArray();
    for (const row of rows) {
      const record = { ...(JSON.parse(row.record) as JsonObject), ...fields };
      if (row.redacted === 1) for (const f of personalFields) if (f in record) record[f] = '**********';
      this.sql.exec('UPDATE usage SET record = ? WHERE seq = ?', JSON.stringify(record), row.seq);
    }
    return rows.length > 0;
  }

  refund(request: RefundRequest): ChargeResult {
    const row = this.row();
    if (!row) return { ok: false, reason: 'no-account', balance: 0 };
    if (!Number.isSafeInteger(request.amount) || request.amount < 0) throw new RangeError('Invalid amount');
    const balance = row.balance + request.amount;
    this.sql.exec('UPDATE account SET balance = ?', balance);
    const recordId = this.insertUsage({ ...request, record: request.record ?? {} }, -request.amount, balance);
    return { ok: true, balance, recordId };
  }

  private insertUsage(
    request: Pick<ChargeRequest, 'id' | 'product' | 'direction' | 'record' | 'occurredAt'>,
    amount: Amount,
    balance: Amount,
  ): number {
    return this.sql
      .exec<{ seq: number }>(
        `INSERT INTO usage (id, product, direction, amount, balance_after, created_at, record)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
        request.id,
        request.product,
        request.direction ?? null,
        amount,
        balance,
        request.occurredAt ?? Date.now(),
        JSON.stringify(request.record),
      )
      .one().seq;
  }

  /** Usage records, with each record's fields as JSON text (`record`), parsed by the caller. */
  usage(query: UsageQuery): StoredUsage[] {
    const where = ['product = ?'];
    const args: SqlStorageValue[] = [query.product];
    if (query.direction) {
      where.push('direction = ?');
      args.push(query.direction);
    }
    if (query.ids?.length) {
      where.push(`id IN (${query.ids.map(() => '?').join(',')})`);
      args.push(...query.ids);
    }
    if (query.from !== undefined) {
      where.push('created_at >= ?');
      args.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('created_at < ?');
      args.push(query.to);
    }
    if (query.after !== undefined) {
      where.push('seq > ?');
      args.push(query.after);
    }
    const limit = Math.min(Math.max(query.limit ?? 1000, 1), 10_000);
    return this.sql
      .exec<{
        seq: number;
        id: string;
        product: string;
        direction: string | null;
        amount: number;
        created_at: number;
        record: string;
        redacted: number;
      }>(
        `SELECT seq, id, product, direction, amount, created_at, record, redacted FROM usage
          WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ${limit}`,
        ...args,
      )
      .toArray()
      .map((r) => ({
        seq: r.seq,
        id: r.id,
        product: r.product as Product,
        direction: r.direction as UsageRecord['direction'],
        amount: r.amount,
        createdAt: r.created_at,
        record: r.record,
        redacted: r.redacted === 1,
      }));
  }

  /**
   * Charges (refunds excluded, and netted into `refunded`) in (created_at, seq) order, one page at a
   * time. The product's time index serves the window and the order, so a page costs the same however
   * many records the window holds; one more row than asked tells whether a next page exists.
   */
  usagePage(query: UsagePageQuery): UsagePage {
    const where = ['product = ?', 'amount >= 0'];
    const args: SqlStorageValue[] = [query.product];
    if (query.direction) {
      where.push('direction = ?');
      args.push(query.direction);
    }
    // One bound JSON array however many ids: a statement may bind at most 100 parameters.
    const byId = Boolean(query.ids?.length);
    if (byId) {
      where.push('id IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(query.ids));
    }
    if (query.from !== undefined) {
      where.push('created_at >= ?');
      args.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('created_at < ?');
      args.push(query.to);
    }
    if (query.after) {
      // The range part uses the index; the rest skips rows of the cursor's own millisecond.
      where.push('created_at >= ?', '(created_at > ? OR seq > ?)');
      args.push(query.after.createdAt, query.after.createdAt, query.after.seq);
    }
    // Field names were checked against RECORD_FIELD by the entrypoint; the path is bound, not spliced.
    for (const [field, value] of Object.entries(query.fields ?? {})) {
      where.push('json_extract(record, ?) = ?');
      args.push(`$.${field}`, value);
    }
    const limit = Math.min(Math.max(query.limit ?? 1000, 1), 10_000);
    // Without INDEXED BY the planner answers the refund lookup from the product index, reading every
    // record of the product once per row of the page (seconds at 100,000 records).
    const rows = this.sql
      .exec<ReportRow>(
        `SELECT seq, id, product, direction, amount, created_at, record, redacted,
           (SELECT COALESCE(-SUM(r.amount), 0) FROM usage r INDEXED BY usage_by_id
             WHERE r.id = u.id AND r.product = u.product AND r.amount < 0) AS refunded
         FROM usage u ${byId ? 'INDEXED BY usage_by_id' : ''}
         WHERE ${where.join(' AND ')} ORDER BY created_at, seq LIMIT ${limit + 1}`,
        ...args,
      )
      .toArray();
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      records: page.map((r) => ({
        seq: r.seq,
        id: r.id,
        product: r.product as Product,
        direction: r.direction as UsageRecord['direction'],
        amount: r.amount,
        refunded: r.refunded,
        createdAt: r.created_at,
        record: r.record,
        redacted: r.redacted === 1,
      })),
      next: more && last ? { createdAt: last.created_at, seq: last.seq } : null,
    };
  }

  /**
   * Sandbox load tests: `count` outbound SMS records spread evenly over the window, recorded without
   * a charge to the balance, with the fields a real submission records.
   */
  seedUsage(seed: UsageSeed): number {
    const row = this.row();
    if (!row) return 0;
    const step = (seed.to - seed.from) / seed.count;
    for (let i = 0; i < seed.count; i++) {
      const at = Math.floor(seed.from + i * step);
      const id = `SEED${at.toString(16).toUpperCase()}${String(i).padStart(6, '0')}`.slice(-16);
      const to = `4477009${String(i % 1000).padStart(5, '0')}`;
      this.sql.exec(
        `INSERT INTO usage (id, product, direction, amount, balance_after, created_at, record)
         VALUES (?, 'SMS', 'outbound', ?, ?, ?, ?)`,
        id,
        SEED_PRICE,
        row.balance,
        at,
        JSON.stringify({
          message_id: id,
          client_ref: null,
          account_ref: null,
          direction: 'outbound',
          from: 'Acme',
          to,
          text: `Seeded message ${i}`,
          type: 'text',
          part: 1,
          country: 'GB',
          country_name: 'United Kingdom',
          network: '23410',
          network_name: 'Telefonica UK Limited',
          price: '0.03330000',
          currency: 'EUR',
          status: 'delivered',
          date_received: new Date(at).toISOString(),
          date_finalized: new Date(at + SEED_LATENCY_MS).toISOString(),
          latency: SEED_LATENCY_MS,
          error_code: String(RECEIPT_ERR.delivered),
          error_code_description: RECEIPT_ERR_DESCRIPTIONS[RECEIPT_ERR.delivered],
        }),
      );
    }
    return seed.count;
  }

  /** Replaces the personal fields of a transaction's usage records; false when there are none. */
  redactUsage(id: string, product: Product, personalFields: string[]): boolean {
    const rows = this.sql
      .exec<{ seq: number; record: string }>(
        'SELECT seq, record FROM usage WHERE id = ? AND product = ?',
        id,
        product,
      )
      .toArray();
    for (const row of rows) {
      const record = JSON.parse(row.record) as JsonObject;
      for (const field of personalFields) if (field in record) record[field] = '**********';
      this.sql.exec(
        'UPDATE usage SET record = ?, redacted = 1 WHERE seq = ?',
        JSON.stringify(record),
        row.seq,
      );
    }
    return rows.length > 0;
  }

  // ---- applications ------------------------------------------------------------------------

  listApplications(offset: number, limit: number): { total: number; items: StoredApplication[] } {
    const total = this.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM applications').one().n;
    const items = this.sql
      .exec<{ id: string; name: string; body: string; public_key: string; created_at: number }>(
        'SELECT * FROM applications ORDER BY created_at, id LIMIT ? OFFSET ?',
        limit,
        offset,
      )
      .toArray()
      .map(application);
    return { total, items };
  }

  getApplication(id: string): StoredApplication | null {
    const row = this.sql
      .exec<{ id: string; name: string; body: string; public_key: string; created_at: number }>(
        'SELECT * FROM applications WHERE id = ?',
        id,
      )
      .toArray()[0];
    return row ? application(row) : null;
  }

  putApplication(app: StoredApplication): void {
    this.sql.exec(
      `INSERT INTO applications (id, name, body, public_key, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, body = excluded.body, public_key = excluded.public_key`,
      app.id,
      app.name,
      app.body,
      app.publicKey,
      app.createdAt,
    );
  }

  /** Replaces an existing application; false when it is gone (a delete won the race). */
  replaceApplication(app: StoredApplication): boolean {
    const cursor = this.sql.exec(
      'UPDATE applications SET name = ?, body = ?, public_key = ? WHERE id = ?',
      app.name,
      app.body,
      app.publicKey,
      app.id,
    );
    return cursor.rowsWritten > 0;
  }

  deleteApplication(id: string): boolean {
    const exists = this.sql.exec('SELECT id FROM applications WHERE id = ?', id).toArray().length > 0;
    if (exists) this.sql.exec('DELETE FROM applications WHERE id = ?', id);
    return exists;
  }

  /** Removes the account and everything it holds (sandbox reset). */
  async wipe(): Promise<void> {
    this.windows.clear();
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
  }
}

function secretInfo(row: { id: string; created_at: number }): SecretInfo {
  return { id: row.id, created_at: new Date(row.created_at).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

function application(row: {
  id: string;
  name: string;
  body: string;
  public_key: string;
  created_at: number;
}): StoredApplication {
  return {
    id: row.id,
    name: row.name,
    body: row.body,
    publicKey: row.public_key,
    createdAt: row.created_at,
  };
}

/** A secret is stored only as a salted hash. */
function hashSecret(salt: string, secret: string): Promise<string> {
  return sha256Hex(`${salt}:${secret}`);
}

function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The settings the API shows, from the account's row. */
function settingsOf(row: AccountRow): AccountSettings {
  return {
    'mo-callback-url': row.mo_callback_url,
    'dr-callback-url': row.dr_callback_url,
    'max-outbound-request': row.max_outbound_request,
    'max-inbound-request': row.max_inbound_request,
    'max-calls-per-second': row.max_calls_per_second,
  };
}
