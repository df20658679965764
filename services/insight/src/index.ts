import { WorkerEntrypoint } from 'cloudflare:workers';
import type { RedactableRpc } from '@comms/core';
import { app } from './app';

/**
 * The insight worker: the Number Insight routes. It keeps no state, so a sandbox reset has nothing
 * to reach here.
 */
export default class InsightService extends WorkerEntrypoint<Env> implements RedactableRpc {
  override fetch(request: Request): Promise<Response> {
    return Promise.resolve(app.fetch(request, this.env, this.ctx));
  }

  /** Lookups live only in the ledger, which redact scrubs itself: nothing of ours to remove. */
  async redactTransaction(_apiKey: string, _id: string): Promise<boolean> {
    return true;
  }
}
