import { WorkerEntrypoint } from 'cloudflare:workers';
import type { RedactableRpc } from '@comms/core';
import { app } from './app';
import { isRequestId } from './middleware';
import { directoryOf, lockOf, requestOf } from './objects';

export { StateDirectory as VerifyDirectory } from '@comms/core/durable';
export { NumberLock } from './durable/lock';
export { VerifyRequest } from './durable/request';

/** The verify worker: its HTTP routes; redaction and a sandbox reset as RPC. */
export default class VerifyService extends WorkerEntrypoint<Env> implements RedactableRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  /** Scrubs the number from a request (redact); a malformed id is no request at all. */
  async redactTransaction(apiKey: string, id: string): Promise<boolean> {
    if (!isRequestId(id)) return false;
    return requestOf(this.env, id).redact(apiKey);
  }

  /** Wipes every request and lock the directory knows, and the directory. */
  async reset(): Promise<void> {
    const objects = await directoryOf(this.env).reset();
    await Promise.all(
      objects.map((o) =>
        o.kind === 'request' ? requestOf(this.env, o.name).wipe() : lockOf(this.env, o.name).wipe(),
      ),
    );
  }
}
