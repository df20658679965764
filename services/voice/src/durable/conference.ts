import { DurableObject } from 'cloudflare:workers';
import { migrate } from '@comms/core';
import { directoryOf, legOf } from '../objects';

const MIGRATIONS = [
  `CREATE TABLE members (
     uuid TEXT PRIMARY KEY,
     end_on_exit INTEGER NOT NULL,
     start_on_enter INTEGER NOT NULL,
     joined_at INTEGER NOT NULL
   );
   CREATE TABLE conference (id INTEGER PRIMARY KEY CHECK (id = 1), started INTEGER NOT NULL);`,
];

/** A leg joining a named conversation (NCCO `conversation`). */
export interface ConferenceMember {
  uuid: string;
  /** `endOnExit`: the conversation ends for everyone when this leg leaves it. */
  endOnExit: boolean;
  /** `startOnEnter`: the conversation starts when this leg joins; others wait, hearing music on hold. */
  startOnEnter: boolean;
}

/**
 * One named conversation of an account (`<api_key>/<name>`): who is in it, and whether it has
 * started. A moderator (`startOnEnter`) starts it for those who wait; one with `endOnExit` ends it
 * for all when leaving, and each other leg goes on to the next action of its NCCO.
 */
export class Conference extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /** Adds a leg; one with `startOnEnter` starts the conversation for the legs waiting in it. */
  async join(key: string, member: ConferenceMember): Promise<void> {
    if (this.sql.exec('SELECT 1 FROM conference').toArray().length === 0) {
      // First use: listed so that a sandbox reset reaches this conversation.
      await directoryOf(this.env).note('conference', key);
      this.sql.exec('INSERT INTO conference (id, started) VALUES (1, 0)');
    }
    this.sql.exec(
      `INSERT INTO members (uuid, end_on_exit, start_on_enter, joined_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (uuid) DO UPDATE SET end_on_exit = excluded.end_on_exit, start_on_enter = excluded.start_on_enter`,
      member.uuid,
      member.endOnExit ? 1 : 0,
      member.startOnEnter ? 1 : 0,
      Date.now(),
    );
    if (member.startOnEnter && !this.started()) {
      this.sql.exec('UPDATE conference SET started = 1');
      const waiting = this.others(member.uuid);
      await Promise.all(
        waiting.map((uuid) =>
          legOf(this.env, uuid)
            .input({ kind: 'conversation-started', name: conversationName(key) })
            .catch((err) => console.error('voice: could not start a waiting leg', uuid, err)),
        ),
      );
    }
  }

  /**
   * Removes a leg. When it had `endOnExit`, the conversation is over: every other leg leaves it and
   * goes on with its NCCO, and the conversation may start afresh.
   */
  async leave(key: string, uuid: string): Promise<void> {
    const row = this.sql
      .exec<{ end_on_exit: number }>('SELECT end_on_exit FROM members WHERE uuid = ?', uuid)
      .toArray()[0];
    if (!row) return;
    this.sql.exec('DELETE FROM members WHERE uuid = ?', uuid);
    if (row.end_on_exit !== 1) return;
    const rest = this.others(uuid);
    this.sql.exec('DELETE FROM members');
    this.sql.exec('UPDATE conference SET started = 0');
    const name = conversationName(key);
    await Promise.all(
      rest.map((other) =>
        legOf(this.env, other)
          .input({ kind: 'conversation-ended', name })
          .catch((err) => console.error('voice: could not end a leg of the conversation', other, err)),
      ),
    );
  }

  /** The legs in the conversation, for the sandbox's view. */
  members(): { uuid: string; endOnExit: boolean; startOnEnter: boolean }[] {
    return this.sql
      .exec<{ uuid: string; end_on_exit: number; start_on_enter: number }>(
        'SELECT uuid, end_on_exit, start_on_enter FROM members ORDER BY joined_at',
      )
      .toArray()
      .map((r) => ({ uuid: r.uuid, endOnExit: r.end_on_exit === 1, startOnEnter: r.start_on_enter === 1 }));
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
  }

  private started(): boolean {
    return this.sql.exec<{ started: number }>('SELECT started FROM conference').one().started === 1;
  }

  private others(uuid: string): string[] {
    return this.sql
      .exec<{ uuid: string }>('SELECT uuid FROM members WHERE uuid != ? ORDER BY joined_at', uuid)
      .toArray()
      .map((r) => r.uuid);
  }
}

/** The conversation's name in its key, `<api_key>/<name>`. */
function conversationName(key: string): string {
  return key.slice(key.indexOf('/') + 1);
}
