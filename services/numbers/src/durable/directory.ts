import { DurableObject } from 'cloudflare:workers';

/** Which country pools and account holdings exist, so that a sandbox reset can reach them all. One instance. */
export class Directory extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(
      'CREATE TABLE IF NOT EXISTS objects (kind TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (kind, name))',
    );
  }

  note(kind: 'pool' | 'holdings', name: string): void {
    this.sql.exec('INSERT OR IGNORE INTO objects (kind, name) VALUES (?, ?)', kind, name);
  }

  /** Forgets everything; answers what existed so that each can be wiped. */
  async reset(): Promise<{ kind: 'pool' | 'holdings'; name: string }[]> {
    const all = this.sql
      .exec<{ kind: 'pool' | 'holdings'; name: string }>('SELECT kind, name FROM objects')
      .toArray();
    this.sql.exec('DELETE FROM objects');
    return all;
  }
}
