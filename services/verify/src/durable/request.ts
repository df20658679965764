import { DurableObject } from 'cloudflare:workers';
import { type Amount, armAlarm, messageId, migrate } from '@comms/core';
import { DEFAULT_SENDER, messagesPrice, type RequestFacts, usageRecord, VERIFY_PRICE } from '../facts';
import {
  advance,
  type CheckOutcome,
  type Command,
  type ControlOutcome,
  check,
  control,
  create,
  type Effect,
  nextDeadline,
  type Plan,
  type Randomness,
  type RequestState,
  type SentEvent,
  type Transition,
} from '../machine';
import { messageText } from '../messages';
import { accounts, directoryOf, handsets, lockName, lockOf } from '../objects';

const MIGRATIONS = [
  `CREATE TABLE request (
     id TEXT PRIMARY KEY,
     api_key TEXT NOT NULL,
     facts TEXT NOT NULL,
     state TEXT NOT NULL
   );
   CREATE TABLE schedule (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     job TEXT NOT NULL,
     due_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX schedule_due ON schedule (due_at);`,
];

/**
 * Work the request owes the world after a transition, kept in the schedule table until done: a
 * delivery attempt for the phone, the ledger's settlement, the release of the number's lock.
 */
type Job = { kind: 'deliver'; event: SentEvent } | { kind: 'settle' } | { kind: 'unlock' };

/** What a check answers, with what a match costs. */
export type CheckAnswer =
  | { outcome: 'match'; eventId: string; price: Amount; messagesPrice: Amount }
  | Exclude<CheckOutcome, { outcome: 'match' }>;

/** A request as search shows it. */
export interface Snapshot {
  facts: RequestFacts;
  state: RequestState;
}

/** Codes and event ids for real requests. */
const RANDOM: Randomness = {
  code(length) {
    const values = crypto.getRandomValues(new Uint32Array(length));
    return Array.from(values, (v) => String(v % 10)).join('');
  },
  eventId: messageId,
};

/** A failed job is tried again after 5 s, doubling, at most every 5 minutes. */
/** What replaces personal data on redaction, as the ledger writes it. */
const REDACTED = '**********';

function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** attempts, 300_000);
}

/**
 * One verify request (named by its request id): the state machine's state, and a schedule of the
 * work its transitions left to do. Every timer, the next attempt as much as expiry, is this object's
 * one alarm; every method first applies what time has done, so a late alarm is never seen.
 */
export class VerifyRequest extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private draining: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // Looking up an id that was never a request must leave nothing behind, so the tables are made by
    // `start` alone; an object that has them gets any later migration here.
    ctx.blockConcurrencyWhile(async () => {
      if (this.exists()) migrate(this.sql, MIGRATIONS);
    });
  }

  /** Makes the request and sends its first attempt. */
  async start(facts: RequestFacts, plan: Plan): Promise<void> {
    if (this.exists()) throw new Error(`Request ${facts.requestId} exists already`);
    // Listed first, so that a sandbox reset reaches every object that holds state.
    await directoryOf(this.env).note('request', facts.requestId);
    migrate(this.sql, MIGRATIONS);
    const { state, effects } = create(plan, Date.now(), RANDOM);
    this.sql.exec(
      'INSERT INTO request (id, api_key, facts, state) VALUES (?, ?, ?, ?)',
      facts.requestId,
      facts.apiKey,
      JSON.stringify(facts),
      JSON.stringify(state),
    );
    this.schedule(effects);
    await this.catchUp();
  }

  /** Checks a code for the account that made the request; anyone else's check finds nothing. */
  async check(apiKey: string, code: string): Promise<CheckAnswer> {
    const loaded = this.load(apiKey);
    if (!loaded) return { outcome: 'inactive' };
    const transition = check(loaded.state, code, Date.now(), RANDOM);
    this.save(transition);
    await this.catchUp();
    const { result, state } = transition;
    if (result.outcome !== 'match') return result;
    return { ...result, price: VERIFY_PRICE, messagesPrice: messagesPrice(loaded.facts, state) };
  }

  /** A control command (`cancel`, `trigger_next_event`) from the account that made the request. */
  async control(apiKey: string, command: Command): Promise<ControlOutcome> {
    const loaded = this.load(apiKey);
    if (!loaded) return { outcome: 'inactive' };
    const transition = control(loaded.state, command, Date.now(), RANDOM);
    this.save(transition);
    await this.catchUp();
    return transition.result;
  }

  /** The request as it stands now, for the account that made it; null for anyone else. */
  async search(apiKey: string): Promise<Snapshot | null> {
    const loaded = this.load(apiKey);
    if (!loaded) return null;
    const transition = advance(loaded.state, Date.now(), RANDOM);
    this.save(transition);
    await this.catchUp();
    return { facts: loaded.facts, state: transition.state };
  }

  /**
   * Replaces the destination number in the account's request (redact); false when the account made
   * no such request. The number's lock keeps its own name and lapses by its alarm.
   */
  redact(apiKey: string): boolean {
    const loaded = this.load(apiKey);
    if (!loaded) return false;
    const facts: RequestFacts = { ...loaded.facts, number: REDACTED };
    this.sql.exec('UPDATE request SET facts = ?', JSON.stringify(facts));
    return true;
  }

  /** Whatever time has done since, then the work left over. */
  override async alarm(): Promise<void> {
    const loaded = this.load();
    if (!loaded) return;
    this.save(advance(loaded.state, Date.now(), RANDOM));
    await this.catchUp();
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  private exists(): boolean {
    return (
      this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'request'").toArray()
        .length > 0
    );
  }

  /** The request, if it exists and (when `apiKey` is given) belongs to that account. */
  private load(apiKey?: string): Snapshot | null {
    if (!this.exists()) return null;
    const row = this.sql
      .exec<{ api_key: string; facts: string; state: string }>('SELECT api_key, facts, state FROM request')
      .toArray()[0];
    if (!row || (apiKey !== undefined && row.api_key !== apiKey)) return null;
    return {
      facts: JSON.parse(row.facts) as RequestFacts,
      state: JSON.parse(row.state) as RequestState,
    };
  }

  /** Stores a transition's state and the work it leaves, in one step (no await in between). */
  private save(transition: Transition<unknown>): void {
    this.sql.exec('UPDATE request SET state = ?', JSON.stringify(transition.state));
    this.schedule(transition.effects);
  }

  private schedule(effects: Effect[]): void {
    const now = Date.now();
    for (const job of effects.flatMap(jobsOf)) {
      this.sql.exec('INSERT INTO schedule (job, due_at) VALUES (?, ?)', JSON.stringify(job), now);
    }
  }

  /** Does the work that is due, then arms the alarm for whatever comes next. */
  private async catchUp(): Promise<void> {
    await this.drain();
    await this.arm();
  }

  /** One drain at a time, so that no job is done twice by two callers that interleave. */
  private drain(): Promise<void> {
    this.draining ??= this.runDueJobs().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async runDueJobs(): Promise<void> {
    for (;;) {
      if (!this.exists()) return;
      const now = Date.now();
      const row = this.sql
        .exec<{ seq: number; job: string; attempts: number }>(
          'SELECT seq, job, attempts FROM schedule WHERE due_at <= ? ORDER BY seq LIMIT 1',
          now,
        )
        .toArray()[0];
      if (!row) return;
      try {
        await this.perform(JSON.parse(row.job) as Job);
        this.sql.exec('DELETE FROM schedule WHERE seq = ?', row.seq);
      } catch (err) {
        console.error(`verify request job failed (attempt ${row.attempts + 1})`, err);
        this.sql.exec(
          'UPDATE schedule SET attempts = attempts + 1, due_at = ? WHERE seq = ?',
          now + retryDelayMs(row.attempts),
          row.seq,
        );
      }
    }
  }

  private async arm(): Promise<void> {
    const loaded = this.load();
    if (!loaded) return;
    const job = this.sql.exec<{ t: number | null }>('SELECT MIN(due_at) AS t FROM schedule').one().t;
    const times = [nextDeadline(loaded.state), job].filter((t): t is number => t !== null);
    await armAlarm(this.ctx.storage, times.length === 0 ? null : Math.min(...times));
  }

  private async perform(job: Job): Promise<void> {
    const { facts, state } = this.load()!;
    switch (job.kind) {
      case 'deliver':
        return this.deliver(facts, state.plan, job.event);
      case 'settle':
        return this.settleLedger(facts, state);
      case 'unlock':
        return lockOf(this.env, lockName(facts.apiKey, facts.number)).release(facts.requestId);
    }
  }

  /** Puts the attempt in the phone's inbox: an SMS, or the words of the call. */
  private async deliver(facts: RequestFacts, plan: Plan, event: SentEvent): Promise<void> {
    // A phone that is off or unreachable gets nothing; the attempt still counts.
    if (!facts.reachable) return;
    await handsets(this.env).deliverToHandset({
      from: facts.senderId ?? DEFAULT_SENDER,
      to: facts.number,
      text: messageText(event.type, facts.subject, event.code, facts.locale, plan.pinExpiryMs / 1000),
      channel: event.type === 'sms' ? 'sms' : 'voice',
    });
  }

  /**
   * Settles the price held when the request was made: a success keeps it, anything else gives it back
   * with the request's final report record. The ledger nets a refund into its charge, so each request
   * is one charge in the reports, costing what the request cost.
   */
  private async settleLedger(facts: RequestFacts, state: RequestState): Promise<void> {
    const ledger = accounts(this.env);
    // The charge made with the request carries its report fields: bring them to the final status.
    await ledger.amendUsage(facts.apiKey, {
      product: 'VERIFY-API',
      id: facts.requestId,
      record: usageRecord(facts, state),
    });
    if (state.status === 'SUCCESS') return;
    const result = await ledger.refund(facts.apiKey, {
      product: 'VERIFY-API',
      direction: 'outbound',
      id: facts.requestId,
      amount: VERIFY_PRICE,
      record: usageRecord(facts, state),
    });
    // An account that no longer exists (a sandbox reset) has nothing left to settle.
    if (!result.ok && result.reason !== 'no-account') throw new Error(`refund refused: ${result.reason}`);
  }
}

/** The jobs an effect of the machine leaves: the end of a request settles it and frees its number. */
function jobsOf(effect: Effect): Job[] {
  return effect.kind === 'deliver'
    ? [{ kind: 'deliver', event: effect.event }]
    : [{ kind: 'settle' }, { kind: 'unlock' }];
}
