import { DurableObject } from 'cloudflare:workers';

/**
 * Which Durable Objects of a service hold state, by kind and name, so that a sandbox reset can
 * reach every one of them (Durable Objects cannot be listed). One instance per service, named
 * `directory`; a service binds it and re-exports it under its own class name.
 *
 * @example
 * await env.DIRECTORY.get(env.DIRECTORY.idFromName('directory')).note('outbox', apiKey);
 */
export class StateDirectory extends DurableObject<object> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: object) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS objects (kind TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (kind, name))',
    );
  }

  note(kind: string, name: string): void {
    this.sql.exec('INSERT OR IGNORE INTO objects (kind, name) VALUES (?, ?)', kind, name);
  }

  /** Forgets everything; answers what existed so that each can be wiped. */
  reset(): { kind: string; name: string }[] {
    const all = this.sql.exec<{ kind: string; name: string }>('SELECT kind, name FROM objects').toArray();
    this.sql.exec('DELETE FROM objects');
    return all;
  }
}
