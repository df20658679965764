import { WorkerEntrypoint } from 'cloudflare:workers';
import { type AnswerRequest, fetchNcco } from './answer-url';
import type { NccoParse } from './ncco';
import { accounts } from './objects';

/**
 * The worker's own entrypoint that call legs ask for NCCOs (a service binding to this worker): a
 * Durable Object never calls a customer's URL itself.
 */
export class NccoFetcher extends WorkerEntrypoint<Env> {
  /** Asks an answer URL for the NCCO, signed like the call's events when the account has a secret. */
  async answer(
    request: AnswerRequest,
    owner?: { apiKey: string; applicationId: string },
  ): Promise<NccoParse> {
    const signing = owner
      ? await accounts(this.env)
          .signingSecret(owner.apiKey)
          .catch(() => null)
      : null;
    return fetchNcco(request, fetch, owner && signing ? { ...owner, secret: signing.secret } : null);
  }
}
