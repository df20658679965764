import {
  type AccountsRpc,
  type JsonObject,
  type JsonValue,
  rpc,
  type SignatureMethod,
  sign,
  type WebhookJob,
  webhookJwt,
} from '@comms/core';
import type { AttemptOutcome } from './durable/delivery-log';

/**
 * How long a receiver has to answer, from the request leaving to the response headers arriving.
 *
 * DESIGN.md asks for 3 s to connect and 15 s for the response. workerd's `fetch` reports nothing
 * between "sent" and "response headers", so a connect phase cannot be timed on its own: a 3 s timer
 * raced against the headers would also cut off a receiver that connects at once and answers in 4 s.
 * We therefore enforce one 15 s limit over the whole exchange. A refused or unresolvable host fails
 * at once anyway; only a host that silently drops the connection waits the full 15 s, not 3 s.
 */
export const RESPONSE_TIMEOUT_MS = 15_000;

/** The account's signature settings, as the accounts service gives them. */
export type SigningSecret = { secret: string; method: SignatureMethod; signWebhooks: boolean };

/** A webhook ready to send: the request, and what the delivery log keeps of it. */
export interface PreparedRequest {
  url: string;
  init: RequestInit & { method: 'GET' | 'POST'; headers: Record<string, string> };
  /** The fields sent, signature fields included. */
  payload: JsonObject;
}

/**
 * Encodes and signs a job. A GET request has no body, so a GET job always carries its fields in
 * the query string, whatever its encoding.
 *
 * @example
 * const { url, init } = await prepareRequest(job, { secret, method: 'sha256', signWebhooks: true });
 */
export async function prepareRequest(
  job: WebhookJob,
  account: SigningSecret | null,
  now = Date.now(),
): Promise<PreparedRequest> {
  const payload: JsonObject = { ...job.body };
  if (job.signing === 'legacy' && account?.signWebhooks) {
    payload['timestamp'] = String(Math.floor(now / 1000));
    payload['nonce'] = crypto.randomUUID();
    // Signed over the fields as the receiver reads them: strings, whatever the encoding.
    payload['sig'] = sign(flatten(payload), account.secret, account.method);
  }
  const url = new URL(job.url);
  const headers: Record<string, string> = {};
  let body = '';
  if (job.method === 'GET' || job.encoding === 'query') {
    for (const [name, value] of Object.entries(flatten(payload))) url.searchParams.append(name, value);
  } else if (job.encoding === 'form') {
    body = new URLSearchParams(flatten(payload)).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else {
    body = JSON.stringify(payload);
    headers['content-type'] = 'application/json';
  }
  if (job.signing === 'jwt') {
    if (!account) throw new Error('the account has no signature secret');
    headers['authorization'] =
      `Bearer ${await webhookJwt({ apiKey: job.accountKey, applicationId: job.applicationId, secret: account.secret, body, now })}`;
  }
  const init: PreparedRequest['init'] = { method: job.method, headers };
  if (job.method === 'POST' && body !== '') init.body = body;
  return { url: url.toString(), init, payload };
}

/**
 * Makes one attempt to deliver a job and reports it; never throws. Runs in the queue consumer,
 * never inside a Durable Object (DESIGN.md: a client URL is never called from one).
 */
export async function attemptDelivery(job: WebhookJob, env: Env): Promise<AttemptOutcome> {
  const at = Date.now();
  const failure = (error: string, final = false): AttemptOutcome => ({
    at,
    status: null,
    error,
    latencyMs: 0,
    payload: job.body,
    headers: {},
    ...(final ? { final } : {}),
  });
  let request: PreparedRequest;
  try {
    const account =
      job.signing === 'none' ? null : await rpc<AccountsRpc>(env.ACCOUNTS).signingSecret(job.accountKey);
    // An account that does not exist now never will: the webhook can never be signed.
    if (job.signing === 'jwt' && !account) return failure('the account does not exist; cannot sign', true);
    request = await prepareRequest(job, account, at);
  } catch (err) {
    return failure(`could not sign the webhook: ${messageOf(err)}`);
  }
  const started = Date.now();
  const sent = { payload: request.payload, headers: request.init.headers };
  try {
    const response = await fetch(request.url, {
      ...request.init,
      // A redirect is not a delivery; following one would also turn a POST into a bodiless GET.
      redirect: 'manual',
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
    });
    // The answer's content means nothing here; release the connection.
    await response.body?.cancel();
    return { at, status: response.status, error: null, latencyMs: Date.now() - started, ...sent };
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    const error = timedOut ? `no response within ${RESPONSE_TIMEOUT_MS / 1000} s` : messageOf(err);
    return { at, status: null, error, latencyMs: Date.now() - started, ...sent };
  }
}

/** Field values as strings, the form a receiver reads from a form, a query string, or a signature. */
function flatten(fields: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) out[name] = text(value);
  return out;
}

function text(value: JsonValue): string {
  if (value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
