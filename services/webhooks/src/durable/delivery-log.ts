import { DurableObject } from 'cloudflare:workers';
import type { JsonObject, WebhookDelivery, WebhookJob, WebhookKind } from '@comms/core';
import { armAlarm, migrate } from '@comms/core';
import { directoryOf } from '../logs';

/** Schema steps (append-only, see `migrate`). */
const MIGRATIONS = [
  `
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS jobs (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      job TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      in_flight INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER,
      payload TEXT,
      headers TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS jobs_by_time ON jobs (created_at);
    CREATE INDEX IF NOT EXISTS jobs_by_kind_time ON jobs (kind, created_at);
    CREATE INDEX IF NOT EXISTS jobs_due ON jobs (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS attempts (
      job_id TEXT NOT NULL,
      n INTEGER NOT NULL,
      at INTEGER NOT NULL,
      status INTEGER,
      error TEXT,
      latency_ms INTEGER NOT NULL,
      PRIMARY KEY (job_id, n)
    );
  `,
];

/** First retry 5 s after a failed attempt, doubling each time. */
export const BACKOFF_BASE_MS = 5_000;
/** The longest wait between two attempts. */
export const BACKOFF_CAP_MS = 15 * 60_000;
/**
 * How long a job handed to the queue, or to an attempt, may stay silent before the alarm enqueues it
 * again: covers a worker that dies mid-attempt and a local queue message lost to a restart. Longer
 * than an attempt can take (15 s response timeout).
 */
export const LEASE_MS = 60_000;

/**
 * The wait before the attempt that follows `failed` failed attempts: 5, 10, 20, 40, 80 s, …, 15 min.
 *
 * @example
 * backoffMs(1); // 5_000
 */
export function backoffMs(failed: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, failed - 1), BACKOFF_CAP_MS);
}

/** Whether the consumer should make an attempt now, and which attempt it is (1-based). */
export type BeginResult =
  | { go: true; attempt: number }
  | { go: false; reason: 'delivered' | 'failed' | 'expired' | 'stale' | 'in-flight' };

/** What one HTTP attempt gave, as the consumer reports it. */
export interface AttemptOutcome {
  /** Epoch ms the attempt started. */
  at: number;
  status: number | null;
  error: string | null;
  latencyMs: number;
  /** The fields sent, signature fields included, and the request headers. */
  payload: JsonObject;
  headers: Record<string, string>;
  /** No later attempt could do better (the webhook cannot be signed): fail the job now. */
  final?: boolean;
}

type JobState = WebhookDelivery['state'];

/**
 * A delivery with its payload still JSON text: a recursive JSON type is too deep for the RPC stub's
 * types, so it is parsed once out of the object.
 */
export type StoredDelivery = Omit<WebhookDelivery, 'payload'> & { payload: string };

interface JobRow extends Record<string, SqlStorageValue> {
  id: string;
  kind: string;
  job: string;
  state: JobState;
  attempts: number;
  in_flight: number;
  next_attempt_at: number | null;
  payload: string | null;
  headers: string | null;
  created_at: number;
}

interface AttemptRow extends Record<string, SqlStorageValue> {
  at: number;
  status: number | null;
  error: string | null;
  latency_ms: number;
}

/**
 * The webhook deliveries of one account (named by its API key): every job, every attempt and what
 * was sent, and the schedule of what happens next. Never calls a client URL itself (DESIGN.md): its
 * one `alarm()` hands due jobs back to the queue, so retries survive restarts and outlast the
 * queue's own retry limit.
 *
 * `next_attempt_at` is when the alarm next acts on a job: a pending job's retry time or the end of
 * its lease (then it is enqueued again), or for a failed job the time to send it to the dead-letter
 * queue. A pending job always has one, so no job is ever forgotten.
 */
export class DeliveryLog extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  /**
   * Records a job the queue handed over and, when an attempt is due, takes a lease on it. Idempotent
   * by job id and attempt count: a duplicate, stale or finished job gets `go: false`.
   */
  async begin(job: WebhookJob): Promise<BeginResult> {
    await this.register(job.accountKey);
    const now = Date.now();
    let row = this.row(job.id);
    // Claims earlier attempts this log never saw: its log was reset since. Reset forgets retries too.
    if (!row && job.attempt !== 0) return { go: false, reason: 'stale' };
    if (!row) {
      this.sql.exec(
        `INSERT INTO jobs (id, kind, job, state, created_at) VALUES (?, ?, ?, 'pending', ?)`,
        job.id,
        job.kind,
        JSON.stringify({ ...job, attempt: 0 }),
        job.createdAt,
      );
      row = this.row(job.id)!;
    }
    if (row.state !== 'pending') return { go: false, reason: row.state };
    if (job.attempt !== row.attempts) return { go: false, reason: 'stale' };
    if (row.in_flight) return { go: false, reason: 'in-flight' };
    if (now > storedJob(row).deadline) {
      this.fail(row.id, now);
      await this.arm();
      return { go: false, reason: 'expired' };
    }
    this.sql.exec('UPDATE jobs SET in_flight = 1, next_attempt_at = ? WHERE id = ?', now + LEASE_MS, row.id);
    await this.arm();
    return { go: true, attempt: row.attempts + 1 };
  }

  /**
   * Records attempt number `attempt` of a job and schedules what follows: nothing after a 2xx, the
   * next attempt after the backoff if that is before the deadline, else failure and the dead-letter
   * queue. Returns the job's state, or null when the attempt was already superseded.
   */
  async finish(jobId: string, attempt: number, outcome: AttemptOutcome): Promise<JobState | null> {
    const row = this.row(jobId);
    // A late report of an attempt that another one has already counted (its lease ran out).
    if (row?.state !== 'pending' || row.attempts !== attempt - 1) return null;
    const now = Date.now();
    this.sql.exec(
      'INSERT INTO attempts (job_id, n, at, status, error, latency_ms) VALUES (?, ?, ?, ?, ?, ?)',
      jobId,
      attempt,
      outcome.at,
      outcome.status,
      outcome.error,
      Math.max(0, Math.round(outcome.latencyMs)),
    );
    this.sql.exec(
      'UPDATE jobs SET attempts = ?, in_flight = 0, payload = ?, headers = ? WHERE id = ?',
      attempt,
      JSON.stringify(outcome.payload),
      JSON.stringify(outcome.headers),
      jobId,
    );
    const next = now + backoffMs(attempt);
    let state: JobState = 'pending';
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      state = 'delivered';
      this.sql.exec(`UPDATE jobs SET state = 'delivered', next_attempt_at = NULL WHERE id = ?`, jobId);
    } else if (outcome.final || next > storedJob(row).deadline) {
      state = 'failed';
      this.fail(jobId, now);
    } else {
      this.sql.exec('UPDATE jobs SET next_attempt_at = ? WHERE id = ?', next, jobId);
    }
    await this.arm();
    return state;
  }

  /** The account's deliveries, newest first. */
  deliveries(options: { limit?: number; kind?: WebhookKind } = {}): StoredDelivery[] {
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
    const rows = options.kind
      ? this.sql
          .exec<JobRow>(
            'SELECT * FROM jobs WHERE kind = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
            options.kind,
            limit,
          )
          .toArray()
      : this.sql
          .exec<JobRow>('SELECT * FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?', limit)
          .toArray();
    return rows.map((row) => this.delivery(row));
  }

  /** Hands due jobs back to the queue, sends failed ones to the dead-letter queue, and re-arms. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const due = this.sql
      .exec<JobRow>('SELECT * FROM jobs WHERE next_attempt_at <= ? ORDER BY next_attempt_at', now)
      .toArray();
    const retries: WebhookJob[] = [];
    const deadLetters: WebhookJob[] = [];
    for (const row of due) {
      const job: WebhookJob = { ...storedJob(row), attempt: row.attempts };
      const expired = row.state === 'pending' && now > job.deadline;
      if (expired) this.fail(row.id, now);
      (row.state === 'failed' || expired ? deadLetters : retries).push(job);
      // Lease first: if a send below throws, the job comes round again instead of being lost.
      this.sql.exec(
        'UPDATE jobs SET in_flight = 0, next_attempt_at = ? WHERE id = ?',
        now + LEASE_MS,
        row.id,
      );
    }
    await this.arm();
    // A retry carries its own attempt count, so a retried job is never mistaken for a stale copy.
    await Promise.all(retries.map((job) => this.env.WEBHOOKS_QUEUE.send(job)));
    await Promise.all(deadLetters.map((job) => this.env.WEBHOOKS_DLQ.send(job)));
    for (const job of deadLetters) {
      this.sql.exec(`UPDATE jobs SET next_attempt_at = NULL WHERE id = ? AND state = 'failed'`, job.id);
    }
    await this.arm();
  }

  /**
   * Brings every waiting retry forward to now (the sandbox's fast-forward): the alarm hands them to
   * the queue at once. Answers how many jobs were waiting.
   */
  async retryNow(): Promise<number> {
    const now = Date.now();
    const waiting = `state = 'pending' AND in_flight = 0 AND next_attempt_at > ?`;
    // Counted apart: `rowsWritten` also counts index rows.
    const count = this.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE ${waiting}`, now)
      .one().n;
    this.sql.exec(`UPDATE jobs SET next_attempt_at = ? WHERE ${waiting}`, now, now);
    await this.arm();
    return count;
  }

  /** Wipes every delivery of this account. */
  async reset(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    migrate(this.sql, MIGRATIONS);
  }

  private row(id: string): JobRow | undefined {
    return this.sql.exec<JobRow>('SELECT * FROM jobs WHERE id = ?', id).toArray()[0];
  }

  /** Fails a job; the alarm sends it to the dead-letter queue at once. */
  private fail(id: string, now: number) {
    this.sql.exec(
      `UPDATE jobs SET state = 'failed', in_flight = 0, next_attempt_at = ? WHERE id = ?`,
      now,
      id,
    );
  }

  /** Sets the alarm to the earliest time it has work, or clears it. */
  private async arm() {
    const next = this.sql.exec<{ t: number | null }>('SELECT MIN(next_attempt_at) AS t FROM jobs').one().t;
    await armAlarm(this.ctx.storage, next);
  }

  /** Lists this log in the service's directory once, so that a reset reaches it. */
  private async register(accountKey: string) {
    if (this.sql.exec(`SELECT value FROM meta WHERE key = 'account'`).toArray().length > 0) return;
    await directoryOf(this.env).note('log', accountKey);
    this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('account', ?)`, accountKey);
  }

  private delivery(row: JobRow): StoredDelivery {
    const job = storedJob(row);
    const attempts = this.sql
      .exec<AttemptRow>(
        'SELECT at, status, error, latency_ms FROM attempts WHERE job_id = ? ORDER BY n',
        row.id,
      )
      .toArray()
      .map((a) => ({ at: iso(a.at), status: a.status, error: a.error, latency_ms: a.latency_ms }));
    return {
      id: row.id,
      kind: job.kind,
      url: job.url,
      method: job.method,
      state: row.state,
      created_at: iso(row.created_at),
      next_attempt_at:
        row.state === 'pending' && row.next_attempt_at !== null ? iso(row.next_attempt_at) : null,
      attempts,
      // Before the first attempt, what will be sent (less any signature fields).
      payload: row.payload ?? JSON.stringify(job.body),
      headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    };
  }
}

function storedJob(row: JobRow): WebhookJob {
  return JSON.parse(row.job) as WebhookJob;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
