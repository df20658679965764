import { DurableObject } from 'cloudflare:workers';
import { migrate } from '@comms/core';
import { type Feature, generatePool, type RentalType } from '../inventory';
import { likeArgument, MSISDN_LIKE } from './pattern';

const MIGRATIONS = [
  `CREATE TABLE numbers (
     msisdn TEXT PRIMARY KEY,
     type TEXT NOT NULL,
     features TEXT NOT NULL,
     cost INTEGER NOT NULL,
     owner TEXT
   );
   CREATE INDEX numbers_by_owner ON numbers (owner, type);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
];

export interface AvailableNumber {
  msisdn: string;
  type: RentalType;
  features: Feature[];
  cost: number;
}

export interface SearchFilter {
  type?: RentalType;
  pattern?: string;
  /** 0 starts with, 1 contains, 2 ends with. */
  searchPattern: 0 | 1 | 2;
  /** Every one of these features. */
  features: Feature[];
  offset: number;
  limit: number;
}

interface NumberRow extends Record<string, SqlStorageValue> {
  msisdn: string;
  type: string;
  features: string;
  cost: number;
  owner: string | null;
}

/**
 * One country's numbers: the inventory for rent and who rents each. Buying is a conditional
 * update inside this object, so two accounts buying one number concurrently cannot both win.
 */
export class NumberPool extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /** Fills the pool on first use; the inventory is generated deterministically per country. */
  private stock(country: string) {
    if (this.sql.exec("SELECT value FROM meta WHERE key = 'country'").toArray().length > 0) return;
    for (const n of generatePool(country)) {
      this.sql.exec(
        'INSERT OR IGNORE INTO numbers (msisdn, type, features, cost) VALUES (?, ?, ?, ?)',
        n.msisdn,
        n.type,
        n.features.join(','),
        n.cost,
      );
    }
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('country', ?)", country);
  }

  search(country: string, filter: SearchFilter): { count: number; numbers: AvailableNumber[] } {
    this.stock(country);
    const where = ['owner IS NULL'];
    const args: SqlStorageValue[] = [];
    if (filter.type) {
      where.push('type = ?');
      args.push(filter.type);
    }
    if (filter.pattern) {
      where.push(MSISDN_LIKE);
      args.push(likeArgument(filter.pattern, filter.searchPattern));
    }
    for (const feature of filter.features) {
      where.push("(',' || features || ',') LIKE ?");
      args.push(`%,${feature},%`);
    }
    const clause = where.join(' AND ');
    const count = this.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM numbers WHERE ${clause}`, ...args)
      .one().n;
    const numbers = this.sql
      .exec<NumberRow>(
        `SELECT * FROM numbers WHERE ${clause} ORDER BY msisdn LIMIT ? OFFSET ?`,
        ...args,
        filter.limit,
        filter.offset,
      )
      .toArray()
      .map(available);
    return { count, numbers };
  }

  /** Rents a number to an account: the number as bought, or why not. */
  buy(
    country: string,
    msisdn: string,
    owner: string,
  ): { ok: true; number: AvailableNumber } | { ok: false; reason: 'unavailable' } {
    this.stock(country);
    const row = this.sql
      .exec<NumberRow>('SELECT * FROM numbers WHERE msisdn = ? AND owner IS NULL', msisdn)
      .toArray()[0];
    if (!row) return { ok: false, reason: 'unavailable' };
    this.sql.exec('UPDATE numbers SET owner = ? WHERE msisdn = ?', owner, msisdn);
    return { ok: true, number: available(row) };
  }

  /** Returns a rented number to the pool; false when this account does not rent it. */
  release(msisdn: string, owner: string): boolean {
    return (
      this.sql.exec('UPDATE numbers SET owner = NULL WHERE msisdn = ? AND owner = ?', msisdn, owner)
        .rowsWritten > 0
    );
  }

  /** Who rents a number, or null. */
  ownerOf(msisdn: string): string | null {
    return (
      this.sql.exec<NumberRow>('SELECT owner FROM numbers WHERE msisdn = ?', msisdn).toArray()[0]?.owner ??
      null
    );
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
  }
}

function available(row: NumberRow): AvailableNumber {
  return {
    msisdn: row.msisdn,
    type: row.type as RentalType,
    features: row.features.split(',') as Feature[],
    cost: row.cost,
  };
}
