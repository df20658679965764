import type { JsonObject } from './contracts';

/** What a webhook is, which fixes its deadline and how it is signed (DESIGN.md, "Webhooks"). */
/** Every webhook kind (for validating a `kind` given by a person). */
export const WEBHOOK_KINDS = [
  'sms-receipt',
  'sms-inbound',
  'insight-async',
  'voice-event',
  'voice-answer',
  'verify-event',
  'reports-callback',
  'generic',
] as const;

export type WebhookKind =
  | 'sms-receipt'
  | 'sms-inbound'
  | 'insight-async'
  | 'voice-event'
  | 'voice-answer'
  | 'verify-event'
  | 'reports-callback'
  | 'generic';

/** How long a kind is retried for, from its creation (inbound SMS 24 h, receipts 72 h). */
export const WEBHOOK_DEADLINE_MS: Record<WebhookKind, number> = {
  'sms-receipt': 72 * 3600_000,
  'sms-inbound': 24 * 3600_000,
  'insight-async': 24 * 3600_000,
  'voice-event': 24 * 3600_000,
  'voice-answer': 24 * 3600_000,
  'verify-event': 24 * 3600_000,
  'reports-callback': 24 * 3600_000,
  generic: 24 * 3600_000,
};

/**
 * How a webhook is signed:
 * - `legacy`: `timestamp`, `nonce` and `sig` fields added with the account's signature secret and
 *   method, when the account has webhook signing enabled (SMS receipts, inbound SMS);
 * - `jwt`: `Authorization: Bearer` HS256 JWT over the account's signature secret with a
 *   `payload_hash` of the body (voice, messages and the newer families), always;
 * - `none`.
 */
export type WebhookSigning = 'legacy' | 'jwt' | 'none';

/** One webhook to deliver; producers put it on the `webhooks` queue and never call the URL themselves. */
export interface WebhookJob {
  /** Unique per delivery; a redelivered job keeps its id. */
  id: string;
  accountKey: string;
  kind: WebhookKind;
  url: string;
  method: 'GET' | 'POST';
  /** `json` body, `form` body, or `query` string (GET webhooks). */
  encoding: 'json' | 'form' | 'query';
  body: JsonObject;
  signing: WebhookSigning;
  /** Application id for JWT-signed webhooks (`application_id` claim). */
  applicationId?: string;
  /** Epoch ms after which no further attempt is made. */
  deadline: number;
  /** Epoch ms the job was created. */
  createdAt: number;
  /** Attempts made so far (0 for a new job). */
  attempt: number;
}

/**
 * A job with its deadline taken from its kind.
 *
 * @example
 * await env.WEBHOOKS_QUEUE.send(webhookJob({ accountKey, kind: 'sms-receipt', url, method: 'POST', encoding: 'json', body, signing: 'legacy' }));
 */
export function webhookJob(
  job: Omit<WebhookJob, 'id' | 'deadline' | 'createdAt' | 'attempt'> & { id?: string; now?: number },
): WebhookJob {
  const now = job.now ?? Date.now();
  const { now: _now, ...rest } = job;
  return {
    ...rest,
    id: job.id ?? crypto.randomUUID(),
    createdAt: now,
    deadline: now + WEBHOOK_DEADLINE_MS[job.kind],
    attempt: 0,
  };
}

/** One attempt as the delivery log keeps it. */
export interface WebhookAttempt {
  at: string;
  status: number | null;
  error: string | null;
  latency_ms: number;
}

/** A delivery as `GET /_sandbox/webhooks` shows it. */
export interface WebhookDelivery {
  id: string;
  kind: WebhookKind;
  url: string;
  method: 'GET' | 'POST';
  /** `pending` (will be retried), `delivered`, or `failed` (deadline passed; dead-lettered). */
  state: 'pending' | 'delivered' | 'failed';
  created_at: string;
  next_attempt_at: string | null;
  attempts: WebhookAttempt[];
  /** What was sent: the body fields, signature fields included, and headers. */
  payload: JsonObject;
  headers: Record<string, string>;
}

/** A test webhook a developer asks the sandbox to send, to try a receiver and its signature check. */
export interface TestWebhook {
  url: string;
  method?: 'GET' | 'POST';
  encoding?: 'json' | 'form' | 'query';
  signing?: WebhookSigning;
}

/** What the webhooks service offers its siblings and the gateway. */
export interface WebhooksRpc {
  deliveries(apiKey: string, options?: { limit?: number; kind?: WebhookKind }): Promise<WebhookDelivery[]>;
  /** Enqueues a `generic` test webhook for an account; answers its delivery id. */
  sendTest(apiKey: string, webhook: TestWebhook): Promise<string>;
  /** Brings an account's waiting retries forward to now; answers how many there were. */
  retryNow(apiKey: string): Promise<number>;
  reset(): Promise<void>;
}
