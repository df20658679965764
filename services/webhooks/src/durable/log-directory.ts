import { DurableObject } from 'cloudflare:workers';
import { migrate } from './migrate';

/** Schema steps (append-only, see `migrate`). */
const MIGRATIONS = ['CREATE TABLE IF NOT EXISTS logs (account_key TEXT PRIMARY KEY)'];

/**
 * Which accounts have a delivery log, so that a sandbox reset reaches every one. One instance,
 * named `directory`.
 */
export class LogDirectory extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  add(accountKey: string): void {
    this.sql.exec('INSERT OR IGNORE INTO logs (account_key) VALUES (?)', accountKey);
  }

  /** Forgets every log and returns the account keys that were known, for their logs to be wiped. */
  async reset(): Promise<string[]> {
    const keys = this.sql
      .exec<{ account_key: string }>('SELECT account_key FROM logs')
      .toArray()
      .map((r) => r.account_key);
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
    return keys;
  }
}
