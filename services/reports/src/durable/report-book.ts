import { DurableObject } from 'cloudflare:workers';
import {
  type AccountIdentity,
  armAlarm,
  type JsonObject,
  migrate,
  type UsageCursor,
  webhookJob,
} from '@comms/core';
import { ZipWriter } from '../archive';
import { csvLine, csvRows } from '../csv';
import { accounts, ledgerPage } from '../ledger';
import type { AsyncRequest } from '../query';
import { recordShape, reportRecord } from '../records';
import {
  type ReportRow,
  type ReportStatus,
  type ReportView,
  reportJson,
  TERMINAL,
  visibleTo,
} from '../report-view';

const MIGRATIONS = [
  `CREATE TABLE reports (
     id TEXT PRIMARY KEY,
     requester TEXT NOT NULL,
     account_id TEXT NOT NULL,
     request TEXT NOT NULL,
     origin TEXT NOT NULL,
     status TEXT NOT NULL,
     receive_time INTEGER NOT NULL,
     start_time INTEGER,
     end_time INTEGER,
     items_count INTEGER NOT NULL DEFAULT 0,
     progress TEXT,
     failures INTEGER NOT NULL DEFAULT 0,
     file_id TEXT,
     due_at INTEGER,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX reports_due ON reports (due_at);
   CREATE INDEX reports_expiry ON reports (expires_at);
   CREATE INDEX reports_by_account ON reports (account_id, receive_time);
   CREATE TABLE parts (report_id TEXT NOT NULL, n INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (report_id, n));
   CREATE TABLE files (file_id TEXT NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (file_id, n));`,
];

/** A new report stays PENDING this long, as a queued job would, before it is processed. */
export const START_DELAY_MS = 500;
/** Ledger pages per step: a step stays short, so a cancel or another report gets its turn. */
const PAGES_PER_STEP = 10;
const LEDGER_PAGE = 1000;
/** Past this many records a report stops with TRUNCATED (the reference's 20 million, scaled down). */
export const MAX_ITEMS = 1_000_000;
/** Reports and their files are kept 72 hours (reference `download-report`). */
const RETENTION_MS = 72 * 3600_000;
/** A ledger that fails this many steps in a row makes the report FAILED. */
const MAX_FAILURES = 3;
/** Below SQLite's 2 MB value limit. */
const FILE_CHUNK_BYTES = 1 << 20;

/** How far a PROCESSING report has got: which account, and where in its records. */
interface Progress {
  accounts: string[];
  index: number;
  after: UsageCursor | null;
  parts: number;
}

/** What the worker hands over to create a report. */
export interface NewReport {
  requester: string;
  request: AsyncRequest;
  origin: string;
}

export type CancelResult = { ok: true; report: ReportView } | { ok: false; reason: 'not-found' | 'terminal' };

/**
 * The asynchronous reports of one primary account and its secondaries. Each report moves PENDING ->
 * PROCESSING -> SUCCESS (or TRUNCATED, FAILED; ABORTED when cancelled) by alarm-driven steps: each
 * step reads a few pages of the ledger into CSV parts; the last step zips them into the file and
 * sends the `callback_url` through the webhook queue.
 */
export class ReportBook extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => migrate(this.sql, MIGRATIONS));
  }

  async create(report: NewReport): Promise<ReportView> {
    const id = crypto.randomUUID();
    const now = Date.now();
    this.sql.exec(
      `INSERT INTO reports (id, requester, account_id, request, origin, status, receive_time, due_at, expires_at)
       VALUES (?, ?, ?, ?, ?, 'PENDING', ?, ?, ?)`,
      id,
      report.requester,
      report.request.accountId,
      JSON.stringify(report.request),
      report.origin,
      now,
      now + START_DELAY_MS,
      now + RETENTION_MS,
    );
    await this.arm();
    return reportJson(this.row(id)!);
  }

  get(id: string, viewer: AccountIdentity): ReportView | null {
    const row = this.row(id);
    return row && visibleTo(row, viewer) ? reportJson(row) : null;
  }

  /** Reports about an account in any of the statuses, newest first, received within the window. */
  list(
    viewer: AccountIdentity,
    filter: { accountId: string; statuses: ReportStatus[]; from?: number; to?: number },
  ): ReportView[] {
    return this.sql
      .exec<ReportRow>(
        `SELECT * FROM reports WHERE account_id = ? AND status IN (${filter.statuses.map(() => '?').join(',')})
           AND receive_time >= ? AND receive_time <= ? ORDER BY receive_time DESC, id`,
        filter.accountId,
        ...filter.statuses,
        filter.from ?? 0,
        filter.to ?? Number.MAX_SAFE_INTEGER,
      )
      .toArray()
      .filter((row) => visibleTo(row, viewer))
      .map(reportJson);
  }

  /** Stops a PENDING or PROCESSING report (ABORTED); a finished one cannot be cancelled. */
  async cancel(id: string, viewer: AccountIdentity): Promise<CancelResult> {
    const row = this.row(id);
    if (!row || !visibleTo(row, viewer)) return { ok: false, reason: 'not-found' };
    if (TERMINAL.has(row.status)) return { ok: false, reason: 'terminal' };
    this.finish(id, 'ABORTED');
    await this.arm();
    return { ok: true, report: reportJson(this.row(id)!) };
  }

  /**
   * A finished report's zip file, streamed a stored chunk at a time so that a large file never has to
   * cross RPC, or sit in memory, whole.
   */
  file(
    fileId: string,
    viewer: AccountIdentity,
  ): { name: string; size: number; body: ReadableStream<Uint8Array> } | null {
    const row = this.sql.exec<ReportRow>('SELECT * FROM reports WHERE file_id = ?', fileId).toArray()[0];
    if (!row || !visibleTo(row, viewer)) return null;
    const size = this.sql
      .exec<{ size: number }>(
        'SELECT COALESCE(SUM(LENGTH(data)), 0) AS size FROM files WHERE file_id = ?',
        fileId,
      )
      .one().size;
    let n = 0;
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        const chunk = this.sql
          .exec<{ data: ArrayBuffer }>('SELECT data FROM files WHERE file_id = ? AND n = ?', fileId, n++)
          .toArray()[0];
        if (chunk) controller.enqueue(new Uint8Array(chunk.data));
        else controller.close();
      },
    });
    const request = JSON.parse(row.request) as AsyncRequest;
    return { name: `${request.product}_${row.id}.zip`, size, body };
  }

  /** Runs every step that is due, forgets expired reports, and re-arms. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.expire(now);
    const due = this.sql
      .exec<{ id: string }>('SELECT id FROM reports WHERE due_at <= ? ORDER BY due_at', now)
      .toArray();
    for (const { id } of due) await this.step(id);
    await this.arm();
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  // ---- the steps of a report ---------------------------------------------------------------

  private async step(id: string): Promise<void> {
    const row = this.row(id);
    if (row?.status === 'PENDING') await this.start(row);
    else if (row?.status === 'PROCESSING') await this.advance(row);
  }

  /** PENDING -> PROCESSING: which accounts are read, and the CSV header. */
  private async start(row: ReportRow): Promise<void> {
    const request = JSON.parse(row.request) as AsyncRequest;
    let list = [request.accountId];
    if (request.includeSubaccounts) {
      try {
        list = list.concat(await accounts(this.env).secondaryAccounts(request.accountId));
      } catch (err) {
        return this.failure(row.id, err);
      }
    }
    // A cancel may have come in while the accounts service answered.
    if (this.row(row.id)?.status !== 'PENDING') return;
    const now = Date.now();
    const progress: Progress = { accounts: list, index: 0, after: null, parts: 1 };
    this.sql.exec(
      'INSERT INTO parts (report_id, n, body) VALUES (?, 0, ?)',
      row.id,
      csvLine([...recordShape(request).fields]),
    );
    this.sql.exec(
      `UPDATE reports SET status = 'PROCESSING', start_time = ?, progress = ?, due_at = ? WHERE id = ?`,
      now,
      JSON.stringify(progress),
      now,
      row.id,
    );
  }

  /** Reads up to PAGES_PER_STEP ledger pages into CSV parts; finishes the report when all are read. */
  private async advance(row: ReportRow): Promise<void> {
    const request = JSON.parse(row.request) as AsyncRequest;
    const shape = recordShape(request);
    const progress = JSON.parse(row.progress ?? 'null') as Progress;
    let items = row.items_count;
    for (let i = 0; i < PAGES_PER_STEP && progress.index < progress.accounts.length; i++) {
      const accountId = progress.accounts[progress.index]!;
      let page: Awaited<ReturnType<typeof ledgerPage>>;
      try {
        page = await ledgerPage(this.env, accountId, request, progress.after, LEDGER_PAGE);
      } catch (err) {
        return this.failure(row.id, err);
      }
      if (this.row(row.id)?.status !== 'PROCESSING') return;
      const usable = page.records.slice(0, MAX_ITEMS - items);
      const body = csvRows(
        shape.fields,
        usable.map((usage) => reportRecord(shape, usage, accountId)),
      );
      items += usable.length;
      if (usable.length < page.records.length)
        return this.complete(row.id, items, 'TRUNCATED', body, progress);
      if (page.next) progress.after = page.next;
      else {
        progress.index++;
        progress.after = null;
      }
      // The part and the progress that accounts for it are written together, with no await between.
      this.savePart(row.id, progress, body, items);
    }
    if (progress.index >= progress.accounts.length)
      return this.complete(row.id, items, 'SUCCESS', '', progress);
    this.sql.exec('UPDATE reports SET due_at = ?, failures = 0 WHERE id = ?', Date.now(), row.id);
  }

  private savePart(id: string, progress: Progress, body: string, items: number): void {
    if (body) {
      this.sql.exec('INSERT INTO parts (report_id, n, body) VALUES (?, ?, ?)', id, progress.parts, body);
      progress.parts++;
    }
    this.sql.exec(
      'UPDATE reports SET progress = ?, items_count = ? WHERE id = ?',
      JSON.stringify(progress),
      items,
      id,
    );
  }

  /** Zips the parts into the report's file, marks it finished and sends its callback. */
  private async complete(
    id: string,
    items: number,
    status: 'SUCCESS' | 'TRUNCATED',
    lastBody: string,
    progress: Progress,
  ): Promise<void> {
    this.savePart(id, progress, lastBody, items);
    const row = this.row(id)!;
    const request = JSON.parse(row.request) as AsyncRequest;
    const fileId = crypto.randomUUID();
    const day = new Date(row.receive_time).toISOString().slice(0, 10).replace(/-/g, '');
    this.writeZip(id, fileId, `report_${request.product}_${request.accountId}_${day}.csv`);
    this.sql.exec('UPDATE reports SET file_id = ? WHERE id = ?', fileId, id);
    this.finish(id, status);
    await this.sendCallback(id);
  }

  /** Streams the CSV parts through the compressor into file chunks of at most FILE_CHUNK_BYTES. */
  private writeZip(id: string, fileId: string, csvName: string): void {
    let pending: Uint8Array[] = [];
    let size = 0;
    let n = 0;
    const flush = () => {
      if (!size) return;
      const chunk = new Uint8Array(size);
      let at = 0;
      for (const piece of pending) {
        chunk.set(piece, at);
        at += piece.length;
      }
      this.sql.exec('INSERT INTO files (file_id, n, data) VALUES (?, ?, ?)', fileId, n++, chunk);
      pending = [];
      size = 0;
    };
    const zip = new ZipWriter(csvName, (bytes) => {
      pending.push(bytes);
      size += bytes.length;
      if (size >= FILE_CHUNK_BYTES) flush();
    });
    for (const part of this.sql.exec<{ body: string }>(
      'SELECT body FROM parts WHERE report_id = ? ORDER BY n',
      id,
    )) {
      zip.write(part.body);
    }
    zip.close();
    flush();
  }

  /** A failed step is retried after a pause; the third failure in a row makes the report FAILED. */
  private async failure(id: string, err: unknown): Promise<void> {
    console.error(`report ${id}: ledger step failed`, err);
    const row = this.row(id);
    if (!row || TERMINAL.has(row.status)) return;
    const failures = row.failures + 1;
    if (failures < MAX_FAILURES) {
      this.sql.exec(
        'UPDATE reports SET failures = ?, due_at = ? WHERE id = ?',
        failures,
        Date.now() + 1000 * failures,
        id,
      );
      return;
    }
    this.finish(id, 'FAILED');
    await this.sendCallback(id);
  }

  /** Moves a report to a final state and drops its working parts. */
  private finish(id: string, status: ReportStatus): void {
    this.sql.exec('DELETE FROM parts WHERE report_id = ?', id);
    this.sql.exec(
      'UPDATE reports SET status = ?, end_time = ?, due_at = NULL, progress = NULL WHERE id = ?',
      status,
      Date.now(),
      id,
    );
  }

  /** The report as GET shows it, POSTed to its `callback_url` by the webhooks service. */
  private async sendCallback(id: string): Promise<void> {
    const row = this.row(id);
    const request = row ? (JSON.parse(row.request) as AsyncRequest) : undefined;
    if (!row || !request?.callbackUrl) return;
    try {
      await this.env.WEBHOOKS_QUEUE.send(
        webhookJob({
          id: `report-${id}`,
          accountKey: row.requester,
          kind: 'reports-callback',
          url: request.callbackUrl,
          method: 'POST',
          encoding: 'json',
          // A closed object of JSON values: the view's optional fields are left out, never undefined.
          body: reportJson(row) as unknown as JsonObject,
          signing: 'none',
        }),
      );
    } catch (err) {
      // The report itself is done; a lost callback is visible in the report's status anyway.
      console.error(`report ${id}: callback not enqueued`, err);
    }
  }

  private expire(now: number): void {
    const old = this.sql
      .exec<{ id: string; file_id: string | null }>(
        'SELECT id, file_id FROM reports WHERE expires_at <= ?',
        now,
      )
      .toArray();
    for (const { id, file_id } of old) {
      this.sql.exec('DELETE FROM parts WHERE report_id = ?', id);
      if (file_id) this.sql.exec('DELETE FROM files WHERE file_id = ?', file_id);
      this.sql.exec('DELETE FROM reports WHERE id = ?', id);
    }
  }

  private async arm(): Promise<void> {
    const next = this.sql
      .exec<{ t: number | null }>(
        'SELECT MIN(t) AS t FROM (SELECT MIN(due_at) AS t FROM reports UNION ALL SELECT MIN(expires_at) FROM reports)',
      )
      .one().t;
    await armAlarm(this.ctx.storage, next);
  }

  private row(id: string): ReportRow | undefined {
    return this.sql.exec<ReportRow>('SELECT * FROM reports WHERE id = ?', id).toArray()[0];
  }
}
