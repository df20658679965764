import { WorkerEntrypoint } from 'cloudflare:workers';
import { type AnswerRequest, fetchNcco } from './answer-url';
import type { NccoParse } from './ncco';
import { accounts } from './objects';

/**
 * The worker's own entrypoint that call legs ask for NCCOs (a service binding to this worker): a
 * Durable Object never calls a customer's URL itself.
 */
export class NccoFetcher extends WorkerEntrypoint<Env> {
  /**
   * Asks a URL for an NCCO, signed like the call's events when the account has a secret. With
   * `fallback`, a URL that cannot be reached or answers an HTTP error (the answer URL, or an event
   * URL that answers synchronously) is replaced by the application's `fallback_answer_url`, asked
   * with the same parameters.
   */
  async answer(
    request: AnswerRequest,
    owner?: { apiKey: string; applicationId: string },
    options: { fallback?: boolean } = {},
  ): Promise<NccoParse> {
    const signing = owner
      ? await accounts(this.env)
          .signingSecret(owner.apiKey)
          .catch(() => null)
      : null;
    const signer = owner && signing ? { ...owner, secret: signing.secret } : null;
    const result = await fetchNcco(request, fetch, signer);
    if (result.ok || !result.unreachable || !options.fallback || !owner?.applicationId) return result;
    const fallback = await accounts(this.env)
      .applicationVoiceWebhooks(owner.applicationId)
      .then((hooks) => hooks?.fallback_answer_url ?? null)
      .catch(() => null);
    if (!fallback) return result;
    const method = fallback.http_method === 'POST' ? 'POST' : 'GET';
    return fetchNcco({ url: fallback.address, method, params: request.params }, fetch, signer);
  }
}
