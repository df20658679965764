import { DurableObject } from 'cloudflare:workers';
import { migrate, type OwnedNumber } from '@comms/core';
import { likeArgument, MSISDN_LIKE } from './pattern';

const MIGRATIONS = [
  `CREATE TABLE holdings (
     msisdn TEXT PRIMARY KEY,
     country TEXT NOT NULL,
     type TEXT NOT NULL,
     features TEXT NOT NULL,
     mo_http_url TEXT NOT NULL DEFAULT '',
     mo_smpp_sys_type TEXT NOT NULL DEFAULT '',
     app_id TEXT NOT NULL DEFAULT '',
     voice_callback_type TEXT NOT NULL DEFAULT '',
     voice_callback_value TEXT NOT NULL DEFAULT '',
     voice_status_callback TEXT NOT NULL DEFAULT '',
     messages_callback_type TEXT NOT NULL DEFAULT '',
     messages_callback_value TEXT NOT NULL DEFAULT '',
     bought_at INTEGER NOT NULL
   );
   CREATE INDEX holdings_by_country ON holdings (country);
   CREATE INDEX holdings_by_app ON holdings (app_id);`,
];

/** The configurable fields of an owned number (`POST /number/update`). */
export interface NumberConfig {
  moHttpUrl?: string;
  moSmppSysType?: string;
  appId?: string;
  voiceCallbackType?: '' | 'sip' | 'tel' | 'app';
  voiceCallbackValue?: string;
  voiceStatusCallback?: string;
  messagesCallbackType?: '' | 'app';
  messagesCallbackValue?: string;
}

const COLUMN: Record<keyof NumberConfig, string> = {
  moHttpUrl: 'mo_http_url',
  moSmppSysType: 'mo_smpp_sys_type',
  appId: 'app_id',
  voiceCallbackType: 'voice_callback_type',
  voiceCallbackValue: 'voice_callback_value',
  voiceStatusCallback: 'voice_status_callback',
  messagesCallbackType: 'messages_callback_type',
  messagesCallbackValue: 'messages_callback_value',
};

export interface Holding extends OwnedNumber {
  moSmppSysType: string;
  messagesCallbackType: string;
  messagesCallbackValue: string;
}

export interface HoldingsFilter {
  country?: string;
  applicationId?: string;
  hasApplication?: boolean;
  pattern?: string;
  searchPattern: 0 | 1 | 2;
  offset: number;
  limit: number;
}

interface HoldingRow extends Record<string, SqlStorageValue> {
  msisdn: string;
  country: string;
  type: string;
  features: string;
  mo_http_url: string;
  mo_smpp_sys_type: string;
  app_id: string;
  voice_callback_type: string;
  voice_callback_value: string;
  voice_status_callback: string;
  messages_callback_type: string;
  messages_callback_value: string;
}

/** One account's rented numbers and their callbacks. */
export class Holdings extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  add(number: { msisdn: string; country: string; type: string; features: string[] }): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO holdings (msisdn, country, type, features, bought_at) VALUES (?, ?, ?, ?, ?)',
      number.msisdn,
      number.country,
      number.type,
      number.features.join(','),
      Date.now(),
    );
  }

  remove(msisdn: string): boolean {
    return this.sql.exec('DELETE FROM holdings WHERE msisdn = ?', msisdn).rowsWritten > 0;
  }

  get(apiKey: string, msisdn: string): Holding | null {
    const row = this.sql.exec<HoldingRow>('SELECT * FROM holdings WHERE msisdn = ?', msisdn).toArray()[0];
    return row ? holding(apiKey, row) : null;
  }

  /** Applies the given fields; false when the account does not rent the number. */
  configure(msisdn: string, config: NumberConfig): boolean {
    const entries = Object.entries(config).filter(([, v]) => v !== undefined) as [
      keyof NumberConfig,
      string,
    ][];
    if (this.sql.exec('SELECT msisdn FROM holdings WHERE msisdn = ?', msisdn).toArray().length === 0)
      return false;
    for (const [field, value] of entries) {
      this.sql.exec(`UPDATE holdings SET ${COLUMN[field]} = ? WHERE msisdn = ?`, value, msisdn);
    }
    return true;
  }

  list(apiKey: string, filter: HoldingsFilter): { count: number; numbers: Holding[] } {
    const where: string[] = ['1 = 1'];
    const args: SqlStorageValue[] = [];
    if (filter.country) {
      where.push('country = ?');
      args.push(filter.country);
    }
    if (filter.applicationId) {
      where.push('app_id = ?');
      args.push(filter.applicationId);
    }
    if (filter.hasApplication !== undefined)
      where.push(filter.hasApplication ? "app_id != ''" : "app_id = ''");
    if (filter.pattern) {
      where.push(MSISDN_LIKE);
      args.push(likeArgument(filter.pattern, filter.searchPattern));
    }
    const clause = where.join(' AND ');
    const count = this.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM holdings WHERE ${clause}`, ...args)
      .one().n;
    const numbers = this.sql
      .exec<HoldingRow>(
        `SELECT * FROM holdings WHERE ${clause} ORDER BY bought_at, msisdn LIMIT ? OFFSET ?`,
        ...args,
        filter.limit,
        filter.offset,
      )
      .toArray()
      .map((row) => holding(apiKey, row));
    return { count, numbers };
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
  }
}

function holding(apiKey: string, row: HoldingRow): Holding {
  return {
    apiKey,
    country: row.country,
    msisdn: row.msisdn,
    type: row.type as Holding['type'],
    features: row.features.split(',') as Holding['features'],
    moHttpUrl: row.mo_http_url,
    moSmppSysType: row.mo_smpp_sys_type,
    appId: row.app_id,
    voiceCallbackType: row.voice_callback_type as Holding['voiceCallbackType'],
    voiceCallbackValue: row.voice_callback_value,
    voiceStatusCallback: row.voice_status_callback,
    messagesCallbackType: row.messages_callback_type,
    messagesCallbackValue: row.messages_callback_value,
  };
}
