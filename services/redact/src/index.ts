import { WorkerEntrypoint } from 'cloudflare:workers';
import { app } from './app';

/**
 * The redact worker: `POST /v1/redact/transaction`. It keeps no state (the ledger and the families
 * hold the transactions), so a sandbox reset has nothing to reach here.
 */
export default class RedactService extends WorkerEntrypoint<Env> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }
}
