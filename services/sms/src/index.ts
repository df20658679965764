import { WorkerEntrypoint } from 'cloudflare:workers';
import type { HandsetMessage, InboundSms, InboundSmsResult, SmsRpc } from '@comms/core';
import { app } from './app';
import { receiveInbound } from './inbound';
import { directoryOf, handsetOf, outboxOf } from './objects';

export { StateDirectory as SmsDirectory } from '@comms/core/durable';
export { Handset } from './durable/handset';
export { Outbox } from './durable/outbox';

/** The SMS worker: submissions over HTTP; handsets and inbound SMS as RPC for siblings and the sandbox. */
export default class SmsService extends WorkerEntrypoint<Env> implements SmsRpc {
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

  async reset(): Promise<void> {
    const objects = await directoryOf(this.env).reset();
    await Promise.all(
      objects.map((o) =>
        o.kind === 'outbox' ? outboxOf(this.env, o.name).wipe() : handsetOf(this.env, o.name).wipe(),
      ),
    );
  }
}
