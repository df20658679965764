import { DurableObject } from 'cloudflare:workers';
import type { HandsetMessage } from '@comms/core';
import { directoryOf } from '../objects';

/**
 * One simulated phone (named by its MSISDN): the inbox of what it received, texts and the words of
 * text-to-speech calls alike, so a developer can read a PIN the way a user would.
 */
export class Handset extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.createTables();
  }

  private createTables() {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS inbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL,
      sender TEXT NOT NULL,
      recipient TEXT NOT NULL,
      text TEXT NOT NULL,
      channel TEXT NOT NULL,
      received_at INTEGER NOT NULL
    )`);
    this.sql.exec('CREATE INDEX IF NOT EXISTS inbox_id ON inbox (id)');
  }

  async receive(
    message: Omit<HandsetMessage, 'id' | 'received_at'> & { id?: string },
  ): Promise<HandsetMessage> {
    return (await this.receiveAll([message]))[0]!;
  }

  /**
   * Takes several messages in one step (the outbox settles many at once). A message whose `id` the
   * inbox already holds is not shown twice, so a settlement tried again delivers once.
   */
  async receiveAll(
    messages: (Omit<HandsetMessage, 'id' | 'received_at'> & { id?: string })[],
  ): Promise<HandsetMessage[]> {
    if (messages.length > 0 && this.sql.exec('SELECT 1 FROM inbox LIMIT 1').toArray().length === 0) {
      // First message: listed so that a sandbox reset reaches this phone.
      await directoryOf(this.env).note('handset', messages[0]!.to);
    }
    const at = Date.now();
    return messages.map((message) => {
      const id = message.id ?? crypto.randomUUID();
      this.sql.exec(
        `INSERT INTO inbox (id, sender, recipient, text, channel, received_at)
         SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM inbox WHERE id = ?)`,
        id,
        message.from,
        message.to,
        message.text,
        message.channel,
        at,
        id,
      );
      return {
        id,
        from: message.from,
        to: message.to,
        text: message.text,
        channel: message.channel,
        received_at: new Date(at).toISOString(),
      };
    });
  }

  /** The inbox, oldest first. */
  messages(): HandsetMessage[] {
    return this.sql
      .exec<{
        id: string;
        sender: string;
        recipient: string;
        text: string;
        channel: string;
        received_at: number;
      }>('SELECT * FROM inbox ORDER BY seq')
      .toArray()
      .map((r) => ({
        id: r.id,
        from: r.sender,
        to: r.recipient,
        text: r.text,
        channel: r.channel as HandsetMessage['channel'],
        received_at: new Date(r.received_at).toISOString(),
      }));
  }

  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    // The same live instance may take messages right after a reset.
    this.createTables();
  }
}
