import { DurableObject } from 'cloudflare:workers';
import { migrate } from '@comms/core';

/** Schema steps (append-only). */
const MIGRATIONS = [
  `CREATE TABLE accounts (api_key TEXT PRIMARY KEY, primary_api_key TEXT, created_at INTEGER NOT NULL);
   CREATE INDEX accounts_by_primary ON accounts (primary_api_key);
   CREATE TABLE applications (id TEXT PRIMARY KEY, api_key TEXT NOT NULL);`,
];

/**
 * The directory of the accounts service: every API key (so that a sandbox reset reaches every
 * account) and which account owns each application id (so that a JWT naming only its
 * application can be verified). One instance, named `registry`.
 */
export class Registry extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /** Claims an API key; false when it is taken. */
  registerAccount(apiKey: string, primaryApiKey: string | null): boolean {
    const taken =
      this.sql.exec('SELECT api_key FROM accounts WHERE api_key = ?', apiKey).toArray().length > 0;
    if (taken) return false;
    this.sql.exec(
      'INSERT INTO accounts (api_key, primary_api_key, created_at) VALUES (?, ?, ?)',
      apiKey,
      primaryApiKey,
      Date.now(),
    );
    return true;
  }

  allAccounts(): string[] {
    return this.sql
      .exec<{ api_key: string }>('SELECT api_key FROM accounts')
      .toArray()
      .map((r) => r.api_key);
  }

  /** The secondary accounts of a primary account. */
  secondariesOf(primaryApiKey: string): string[] {
    return this.sql
      .exec<{ api_key: string }>(
        'SELECT api_key FROM accounts WHERE primary_api_key = ? ORDER BY created_at, api_key',
        primaryApiKey,
      )
      .toArray()
      .map((r) => r.api_key);
  }

  registerApplication(id: string, apiKey: string): void {
    this.sql.exec('INSERT OR REPLACE INTO applications (id, api_key) VALUES (?, ?)', id, apiKey);
  }

  unregisterApplication(id: string): void {
    this.sql.exec('DELETE FROM applications WHERE id = ?', id);
  }

  applicationOwner(id: string): string | null {
    return (
      this.sql.exec<{ api_key: string }>('SELECT api_key FROM applications WHERE id = ?', id).toArray()[0]
        ?.api_key ?? null
    );
  }

  /** Forgets everything and returns the API keys that were known, for their objects to be wiped. */
  async reset(): Promise<string[]> {
    const keys = this.allAccounts();
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
    return keys;
  }
}
