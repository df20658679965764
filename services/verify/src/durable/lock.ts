import { DurableObject } from 'cloudflare:workers';
import { migrate } from '@comms/core';
import { directoryOf } from '../objects';

const MIGRATIONS = [
  // At most one row: the request that holds the number, and until when at the latest.
  'CREATE TABLE holder (request_id TEXT NOT NULL, until INTEGER NOT NULL)',
];

export type AcquireResult = { ok: true } | { ok: false; holder: string };

/**
 * One account's lock on verifications to one number (status 10). The request that holds it releases
 * it when it ends; the lock also lapses on its own, by alarm, at the latest time that request could
 * still be in progress, so a release that never came cannot block the number for ever.
 */
export class NumberLock extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /** Takes the lock for `requestId` until `until` (epoch ms), unless another request holds it. */
  async acquire(name: string, requestId: string, until: number): Promise<AcquireResult> {
    const current = this.current();
    if (current && current.request_id !== requestId) return { ok: false, holder: current.request_id };
    // Listed so that a sandbox reset reaches this object.
    await directoryOf(this.env).note('lock', name);
    this.sql.exec('DELETE FROM holder');
    this.sql.exec('INSERT INTO holder (request_id, until) VALUES (?, ?)', requestId, until);
    await this.ctx.storage.setAlarm(until);
    return { ok: true };
  }

  /** Lets go of the lock if `requestId` holds it. */
  async release(requestId: string): Promise<void> {
    if (this.current()?.request_id !== requestId) return;
    this.sql.exec('DELETE FROM holder');
    await this.ctx.storage.deleteAlarm();
  }

  /** The holder's time is up; an alarm that came early waits again. */
  override async alarm(): Promise<void> {
    const holder = this.current();
    if (holder) await this.ctx.storage.setAlarm(holder.until);
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    // This instance lives on after a reset and must find its table again.
    migrate(this.sql, MIGRATIONS);
  }

  /** The holder whose time has not run out; a lapsed one is cleared on the way. */
  private current(): { request_id: string; until: number } | undefined {
    const row = this.sql
      .exec<{ request_id: string; until: number }>('SELECT request_id, until FROM holder')
      .toArray()[0];
    if (row && row.until <= Date.now()) {
      this.sql.exec('DELETE FROM holder');
      return undefined;
    }
    return row;
  }
}
