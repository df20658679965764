import { type JsonObject, webhookJwt } from '@comms/core';
import { type NccoParse, parseNccoText } from './ncco';

/** An answer webhook: where to ask for an NCCO, and the call it is for. */
export interface AnswerRequest {
  url: string;
  method: 'GET' | 'POST';
  /** `to`, `from`, `uuid`, `conversation_uuid` (the answer webhook), or an input's result. */
  params: JsonObject;
}

/** Who signs an answer webhook: the account's signature secret, for its application. */
export interface AnswerSigner {
  apiKey: string;
  applicationId: string;
  secret: string;
}

/** The vendor waits 5 s for an answer and tries three times in all. */
const ANSWER_TIMEOUT_MS = 5000;
const ANSWER_ATTEMPTS = 3;
/** Statuses worth another attempt: the receiver is overloaded or a gateway timed out. */
const RETRY_STATUSES = new Set([429, 503, 504]);
/** NCCOs are small; anything larger is not one. */
const MAX_NCCO_BYTES = 256 * 1024;

/**
 * Asks an answer URL for an NCCO and validates it. Runs in the worker, never in a Durable Object
 * (DESIGN.md: a client URL is not called from one); the call leg reaches it through the
 * `NCCO_FETCHER` binding. Never throws: every failure is a reason for the error event.
 *
 * @example
 * await fetchNcco({ url: 'https://example.com/answer', method: 'GET', params: { uuid, conversation_uuid, from, to } })
 */
export async function fetchNcco(
  request: AnswerRequest,
  fetcher: typeof fetch = fetch,
  signer: AnswerSigner | null = null,
): Promise<NccoParse> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  const init: RequestInit = { method: request.method, redirect: 'follow', headers };
  let body = '';
  if (request.method === 'GET') {
    for (const [name, value] of Object.entries(request.params)) {
      url.searchParams.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  } else {
    body = JSON.stringify(request.params);
    headers['content-type'] = 'application/json';
    init.body = body;
  }
  if (signer) headers['authorization'] = `Bearer ${await webhookJwt({ ...signer, body })}`;
  let failure = 'answer_url could not be reached';
  for (let attempt = 1; attempt <= ANSWER_ATTEMPTS; attempt++) {
    let response: Response;
    try {
      response = await fetcher(url.toString(), { ...init, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    } catch (err) {
      failure =
        err instanceof Error && err.name === 'TimeoutError'
          ? `answer_url did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`
          : 'answer_url could not be reached';
      continue;
    }
    if (RETRY_STATUSES.has(response.status)) {
      await response.body?.cancel();
      failure = `answer_url answered HTTP ${response.status}`;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return notNcco(`answer_url answered HTTP ${response.status}`, true);
    }
    const text = await response.text();
    if (text.length > MAX_NCCO_BYTES) return notNcco('answer_url answered more than 256 KB');
    return parseNccoText(text);
  }
  return notNcco(failure, true);
}

/** A failure; `unreachable` when the URL gave no answer or an HTTP error rather than a bad NCCO. */
function notNcco(reason: string, unreachable = false): NccoParse {
  return {
    ok: false,
    reason,
    invalidParameters: [{ name: 'answer_url', reason }],
    ...(unreachable ? { unreachable } : {}),
  };
}
