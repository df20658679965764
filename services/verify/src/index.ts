import { WorkerEntrypoint } from 'cloudflare:workers';
import { app } from './app';
import { directoryOf, lockOf, requestOf } from './objects';

export { StateDirectory as VerifyDirectory } from '@comms/core/durable';
export { NumberLock } from './durable/lock';
export { VerifyRequest } from './durable/request';

/** The verify worker: its HTTP routes, and a sandbox reset as RPC for the gateway. */
export default class VerifyService extends WorkerEntrypoint<Env> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
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
