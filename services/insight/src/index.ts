import { WorkerEntrypoint } from 'cloudflare:workers';
import { app } from './app';

/**
 * The insight worker: the Number Insight routes. It keeps no state and offers no RPC of its own, so
 * a sandbox reset has nothing to reach here.
 */
export default class InsightService extends WorkerEntrypoint<Env> {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }
}
