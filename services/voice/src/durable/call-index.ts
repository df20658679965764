import { DurableObject } from 'cloudflare:workers';
import { type JsonObject, migrate } from '@comms/core';
import type { StoredRecording } from '../machine';
import { directoryOf } from '../objects';

const MIGRATIONS = [
  `CREATE TABLE calls (
     uuid TEXT PRIMARY KEY,
     conversation_uuid TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     call TEXT NOT NULL
   );
   CREATE INDEX calls_created ON calls (created_at);`,
  `CREATE TABLE recordings (
     uuid TEXT PRIMARY KEY,
     call_uuid TEXT NOT NULL,
     recording TEXT NOT NULL
   );`,
];

/** The vendor's limit on call creation: 3 a second per account (less when the account's settings say so). */
export const CALLS_PER_SECOND = 3;

/** What a leg tells the index each time it changes. */
export interface IndexedCall {
  uuid: string;
  conversationUuid: string;
  status: string;
  createdAt: number;
  call: JsonObject;
}

/** `GET /v1/calls` filters (spec 4.7), already validated. */
export interface CallQuery {
  status?: string;
  /** Epoch ms, inclusive. */
  dateStart?: number;
  /** Epoch ms, inclusive. */
  dateEnd?: number;
  conversationUuid?: string;
  order: 'asc' | 'desc';
  pageSize: number;
  recordIndex: number;
}

/**
 * One object per account: the account's calls as the list shows them, kept current by the legs, the
 * recordings its calls made (downloads name only the recording, and the token names the account),
 * and the sliding one-second window of call creations.
 */
export class CallIndex extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Creation times within the last second; in memory on purpose, as a window outlives no restart. */
  private recent: number[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /** Takes one call creation of the account's allowance; false past `perSecond` in any 1000 ms. */
  admit(perSecond = CALLS_PER_SECOND, now = Date.now()): boolean {
    this.recent = this.recent.filter((t) => now - t < 1000);
    if (this.recent.length >= perSecond) return false;
    this.recent.push(now);
    return true;
  }

  async upsert(apiKey: string, row: IndexedCall): Promise<void> {
    await this.noteOnce(apiKey);
    this.sql.exec(
      `INSERT INTO calls (uuid, conversation_uuid, status, created_at, call) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (uuid) DO UPDATE SET status = excluded.status, call = excluded.call`,
      row.uuid,
      row.conversationUuid,
      row.status,
      row.createdAt,
      JSON.stringify(row.call),
    );
  }

  /** Keeps a finished recording for download; a recording reported twice is kept once. */
  async addRecording(apiKey: string, recording: StoredRecording): Promise<void> {
    await this.noteOnce(apiKey);
    this.sql.exec(
      'INSERT OR IGNORE INTO recordings (uuid, call_uuid, recording) VALUES (?, ?, ?)',
      recording.uuid,
      recording.callUuid,
      JSON.stringify(recording),
    );
  }

  /** A recording of the account's calls; null when the account has none of that id. */
  recording(uuid: string): StoredRecording | null {
    const row = this.sql
      .exec<{ recording: string }>('SELECT recording FROM recordings WHERE uuid = ?', uuid)
      .toArray()[0];
    return row ? (JSON.parse(row.recording) as StoredRecording) : null;
  }

  /** First state of the account here: listed so that a sandbox reset reaches this index. */
  private async noteOnce(apiKey: string) {
    if (await this.ctx.storage.get<boolean>('noted')) return;
    await directoryOf(this.env).note('index', apiKey);
    await this.ctx.storage.put('noted', true);
  }

  /**
   * One page of the account's calls and how many match in all, as JSON text
   * (`{"count": n, "calls": [...]}`): the call objects are stored as text and pass through unparsed.
   */
  list(query: CallQuery): string {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (query.status !== undefined) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.conversationUuid !== undefined) {
      where.push('conversation_uuid = ?');
      args.push(query.conversationUuid);
    }
    if (query.dateStart !== undefined) {
      where.push('created_at >= ?');
      args.push(query.dateStart);
    }
    if (query.dateEnd !== undefined) {
      where.push('created_at <= ?');
      args.push(query.dateEnd);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const count = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM calls ${filter}`, ...args).one().n;
    const direction = query.order === 'desc' ? 'DESC' : 'ASC';
    const calls = this.sql
      .exec<{ call: string }>(
        `SELECT call FROM calls ${filter} ORDER BY created_at ${direction}, rowid ${direction} LIMIT ? OFFSET ?`,
        ...args,
        query.pageSize,
        query.recordIndex,
      )
      .toArray()
      .map((r) => r.call);
    return `{"count":${count},"calls":[${calls.join(',')}]}`;
  }

  async wipe(): Promise<void> {
    this.recent = [];
    await this.ctx.storage.deleteAll();
    // deleteAll drops the tables too; this instance may serve the account again at once.
    migrate(this.sql, MIGRATIONS);
  }
}
