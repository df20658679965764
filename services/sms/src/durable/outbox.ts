import { DurableObject } from 'cloudflare:workers';
import {
  armAlarm,
  formatAmount,
  GroupCommit,
  type JsonObject,
  migrate,
  scts,
  vendorDateTime,
  webhookJob,
} from '@comms/core';
import type { ReceiptStatus } from '@comms/network';
import { directoryOf, handsetOf } from '../objects';

/** The most messages one `sendBatch` of a queue takes. */
const QUEUE_BATCH = 100;

const MIGRATIONS = [
  `CREATE TABLE parts (
     message_id TEXT PRIMARY KEY,
     message_ref TEXT NOT NULL,
     part INTEGER NOT NULL,
     parts INTEGER NOT NULL,
     sender TEXT NOT NULL,
     recipient TEXT NOT NULL,
     content TEXT NOT NULL,
     network_code TEXT NOT NULL,
     price INTEGER NOT NULL,
     outcome TEXT NOT NULL,
     err_code INTEGER NOT NULL,
     receipt_url TEXT,
     client_ref TEXT,
     submitted_at INTEGER NOT NULL,
     due_at INTEGER,
     done_at INTEGER
   );
   CREATE INDEX parts_due ON parts (due_at);`,
];

/** One part of an accepted message, as the outbox schedules it. */
export interface OutboxPart {
  messageId: string;
  /** Shared by the parts of one message. */
  messageRef: string;
  part: number;
  parts: number;
  from: string;
  to: string;
  /** The whole message's content (the handset shows the message once, whole). */
  content: string;
  networkCode: string;
  price: number;
  outcome: ReceiptStatus;
  errCode: number;
  delayMs: number;
  /** Where the receipt goes; null when none is wanted or none is configured. */
  receiptUrl: string | null;
  clientRef?: string;
}

/**
 * The SMS an account sent that the network has not finished with: each part waits for its outcome
 * (an alarm), then the handset gets a delivered message and the receipt goes to the webhook queue.
 */
export class Outbox extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** The account this outbox belongs to, once it is noted in storage. */
  private apiKey: string | null = null;
  /** When the alarm is set for; null when none is. */
  private alarmAt: number | null = null;
  private readonly accepts: GroupCommit<OutboxPart[], number>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.accepts = new GroupCommit(ctx.storage, (parts) => this.insertParts(parts));
    ctx.blockConcurrencyWhile(async () => {
      migrate(this.sql, MIGRATIONS);
      this.alarmAt = await ctx.storage.getAlarm();
    });
  }

  /** Stores the parts of a message; answers when the first is due. Messages that arrive together share a commit. */
  private insertParts(parts: OutboxPart[]): number {
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const p of parts) {
      earliest = Math.min(earliest, now + p.delayMs);
      this.sql.exec(
        `INSERT INTO parts (message_id, message_ref, part, parts, sender, recipient, content, network_code, price,
           outcome, err_code, receipt_url, client_ref, submitted_at, due_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        p.messageId,
        p.messageRef,
        p.part,
        p.parts,
        p.from,
        p.to,
        p.content,
        p.networkCode,
        p.price,
        p.outcome,
        p.errCode,
        p.receiptUrl,
        p.clientRef ?? null,
        now,
        now + p.delayMs,
      );
    }
    return earliest;
  }

  /** Schedules the parts of an accepted message. */
  async accept(apiKey: string, parts: OutboxPart[]): Promise<void> {
    if (this.apiKey !== apiKey) {
      if ((await this.ctx.storage.get<string>('apiKey')) !== apiKey) {
        // First use: listed so that a sandbox reset reaches this object.
        await directoryOf(this.env).note('outbox', apiKey);
        await this.ctx.storage.put('apiKey', apiKey);
      }
      this.apiKey = apiKey;
    }
    const now = Date.now();
    const earliest = await this.accepts.run(parts);
    // The alarm moves only when these parts are due before it (or it is past: running, or given up).
    if (this.alarmAt === null || earliest < this.alarmAt || this.alarmAt <= now) {
      this.alarmAt = await armAlarm(this.ctx.storage, earliest);
    }
  }

  /**
   * Settles every part whose time has come, in batches: each handset gets its delivered messages in
   * one call, then the receipts go to the webhook queue. Tried again as a whole if anything fails;
   * handsets and receipts (stable ids) take a repeat once.
   */
  override async alarm(): Promise<void> {
    const apiKey = (await this.ctx.storage.get<string>('apiKey')) ?? '';
    const now = Date.now();
    const due = this.sql
      .exec<PartRow>(
        'SELECT * FROM parts WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at, part',
        now,
      )
      .toArray();
    // The handset shows a delivered message once, whole, when its last part arrives.
    const byHandset = new Map<string, Parameters<ReturnType<typeof handsetOf>['receiveAll']>[0]>();
    for (const row of due) {
      if (row.outcome !== 'delivered' || row.part !== row.parts) continue;
      const inbox = byHandset.get(row.recipient) ?? [];
      inbox.push({
        id: row.message_ref,
        from: row.sender,
        to: row.recipient,
        text: row.content,
        channel: 'sms',
      });
      byHandset.set(row.recipient, inbox);
    }
    await Promise.all(
      [...byHandset].map(([msisdn, messages]) => handsetOf(this.env, msisdn).receiveAll(messages)),
    );
    const receipts = due.flatMap((row) =>
      row.receipt_url
        ? [
            {
              body: webhookJob({
                id: `receipt-${row.message_id}`,
                accountKey: apiKey,
                kind: 'sms-receipt',
                url: row.receipt_url,
                method: 'POST',
                encoding: 'json',
                body: receipt(apiKey, row, now),
                signing: 'legacy',
              }),
            },
          ]
        : [],
    );
    for (let i = 0; i < receipts.length; i += QUEUE_BATCH) {
      await this.env.WEBHOOKS_QUEUE.sendBatch(receipts.slice(i, i + QUEUE_BATCH));
    }
    this.sql.exec(
      'UPDATE parts SET due_at = NULL, done_at = ? WHERE due_at IS NOT NULL AND due_at <= ?',
      now,
      now,
    );
    const next = this.sql.exec<{ t: number | null }>('SELECT MIN(due_at) AS t FROM parts').one().t;
    this.alarmAt = await armAlarm(this.ctx.storage, next);
  }

  /** Replaces the personal data of a message (redact); false when this outbox never had it. */
  redact(messageId: string): boolean {
    return (
      this.sql.exec(
        `UPDATE parts SET sender = '**********', recipient = '**********', content = '**********'
         WHERE message_id = ? OR message_ref = ?`,
        messageId,
        messageId,
      ).rowsWritten > 0
    );
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.apiKey = null;
    this.alarmAt = null;
    // The same live instance may take messages right after a reset.
    migrate(this.sql, MIGRATIONS);
  }
}

interface PartRow extends Record<string, SqlStorageValue> {
  message_id: string;
  message_ref: string;
  part: number;
  parts: number;
  sender: string;
  recipient: string;
  content: string;
  network_code: string;
  price: number;
  outcome: string;
  err_code: number;
  receipt_url: string | null;
  client_ref: string | null;
}

/** The delivery receipt of spec 6; every value a string, as the vendor sends them. */
function receipt(apiKey: string, row: PartRow, at: number): JsonObject {
  return {
    msisdn: row.recipient,
    to: row.sender,
    'network-code': row.network_code,
    messageId: row.message_id,
    price: formatAmount(row.price),
    status: row.outcome,
    scts: scts(at),
    'err-code': String(row.err_code),
    'api-key': apiKey,
    ...(row.client_ref ? { 'client-ref': row.client_ref } : {}),
    'message-timestamp': vendorDateTime(at),
  };
}
