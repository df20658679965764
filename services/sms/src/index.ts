import { WorkerEntrypoint } from 'cloudflare:workers';
import type { HandsetMessage, InboundSms, InboundSmsResult, RedactableRpc, SmsRpc } from '@comms/core';
import { app } from './app';
import { receiveInbound } from './inbound';
import { directoryOf, handsetOf, outboxOf } from './objects';

export { StateDirectory as SmsDirectory } from '@comms/core/durable';
export { Handset } from './durable/handset';
export { Outbox } from './durable/outbox';

/** The SMS worker: submissions over HTTP; handsets and inbound SMS as RPC for siblings and the sandbox. */
export default class SmsService extends WorkerEntrypoint<Env> implements SmsRpc, RedactableRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  async deliverToHandset(message: Omit<HandsetMessage, 'id' | 'received_at'>): Promise<HandsetMessage> {
    return handsetOf(this.env, message.to).receive(message);
  }

  handsetMessages(msisdn: string): Promise<HandsetMessage[]> {
    return handsetOf(this.env, msisdn).messages();
  }

  inbound(message: InboundSms): Promise<InboundSmsResult> {
    return receiveInbound(this.env, message);
  }

  /**
   * Scrubs sender, recipient and text of a sent message's parts in the account's outbox. Inbound SMS
   * are never stored here (they go straight to the webhook queue), so there is nothing to scrub.
   */
  async redactTransaction(apiKey: string, id: string, type: 'inbound' | 'outbound' = 'outbound') {
    if (type === 'inbound') return true;
    return outboxOf(this.env, apiKey).redact(id);
  }

  async reset(): Promise<void> {
    const objects = await directoryOf(this.env).reset();
    await Promise.all(
      objects.map((o) =>
        o.kind === 'outbox' ? outboxOf(this.env, o.name).wipe() : handsetOf(this.env, o.name).wipe(),
      ),
    );
  }
}
