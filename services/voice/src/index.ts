import { WorkerEntrypoint } from 'cloudflare:workers';
import type { JsonObject, RedactableRpc, VoiceRpc } from '@comms/core';
import { app } from './app';
import { placeInboundCall } from './inbound';
import { conferenceOf, directoryOf, indexOf, legOf } from './objects';
import { calleeInput, isUuid } from './sandbox';

export { StateDirectory as VoiceDirectory } from '@comms/core/durable';
export { CallIndex } from './durable/call-index';
export { CallLeg } from './durable/call-leg';
export { Conference } from './durable/conference';
export { NccoFetcher } from './fetch-ncco';

type Control = Parameters<VoiceRpc['control']>[1];
type ControlResult = Awaited<ReturnType<VoiceRpc['control']>>;

/** The voice worker: calls over HTTP; the simulated callee, reset and redaction as RPC. */
export default class VoiceService extends WorkerEntrypoint<Env> implements VoiceRpc, RedactableRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  async control(uuid: string, control: Control): Promise<ControlResult> {
    if (!isUuid(uuid)) return { ok: false, reason: 'not-found', detail: `Call '${uuid}' was not found` };
    const leg = legOf(this.env, uuid);
    const outcome = await leg.input(calleeInput(control));
    if (!outcome.ok) {
      return {
        ok: false,
        reason: outcome.reason,
        detail: outcome.reason === 'not-found' ? `Call '${uuid}' was not found` : outcome.detail,
      };
    }
    return { ok: true, status: (await leg.status()) ?? '', consumed: outcome.consumed ?? true };
  }

  inboundCall(call: { from: string; to: string }, baseUrl: string): ReturnType<VoiceRpc['inboundCall']> {
    return placeInboundCall(this.env, call, baseUrl);
  }

  async inspect(uuid: string): Promise<JsonObject | null> {
    if (!isUuid(uuid)) return null;
    const text = await legOf(this.env, uuid).inspect();
    return text === null ? null : (JSON.parse(text) as JsonObject);
  }

  /** Scrubs the numbers of a call leg the account owns (redact, spec 2.15); false for any other id. */
  async redactTransaction(apiKey: string, id: string): Promise<boolean> {
    return isUuid(id) ? legOf(this.env, id).redact(apiKey) : false;
  }

  async reset(): Promise<void> {
    const objects = await directoryOf(this.env).reset();
    await Promise.all(
      objects.map((o) =>
        o.kind === 'leg'
          ? legOf(this.env, o.name).wipe()
          : o.kind === 'conference'
            ? conferenceOf(this.env, o.name).wipe()
            : indexOf(this.env, o.name).wipe(),
      ),
    );
  }
}
