import { WEBHOOK_DEADLINE_MS, type WebhookJob } from '@comms/core';
import { attemptDelivery } from './deliver';
import type { BeginResult } from './durable/delivery-log';
import { logOf } from './logs';

/** Delay before Queues redelivers a message after an infrastructure failure. */
const INFRA_RETRY_SECONDS = 5;

/**
 * The `webhooks` queue consumer: one attempt per job, all of a batch at once. The delivery log
 * decides whether an attempt is due and what follows it; the message is acked whatever the receiver
 * answered, because retries are the log's (its alarm enqueues the job again). `retry()` is only for
 * a failure of our own, when the log could not be reached.
 */
export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(batch.messages.map((message) => handle(message, env)));
}

async function handle(message: Message<unknown>, env: Env): Promise<void> {
  const job = message.body;
  if (!isWebhookJob(job)) {
    // Retrying cannot mend a malformed job: park it where an operator will look.
    console.error('webhooks: malformed job sent to the dead-letter queue', message.id);
    try {
      await env.WEBHOOKS_DLQ.send(job);
      message.ack();
    } catch {
      message.retry({ delaySeconds: INFRA_RETRY_SECONDS });
    }
    return;
  }
  const log = logOf(env, job.accountKey);
  let begun: BeginResult;
  try {
    begun = await log.begin(job);
  } catch (err) {
    console.error('webhooks: delivery log unavailable', job.id, err);
    message.retry({ delaySeconds: INFRA_RETRY_SECONDS });
    return;
  }
  if (begun.go) {
    const outcome = await attemptDelivery(job, env);
    try {
      await log.finish(job.id, begun.attempt, outcome);
    } catch (err) {
      // The job's lease is still held, so a redelivered message would be skipped anyway; when the
      // lease runs out the log's alarm enqueues the job again.
      console.error('webhooks: could not record an attempt', job.id, err);
    }
  }
  message.ack();
}

function isWebhookJob(value: unknown): value is WebhookJob {
  if (typeof value !== 'object' || value === null) return false;
  const job = value as Partial<Record<keyof WebhookJob, unknown>>;
  return (
    typeof job.id === 'string' &&
    typeof job.accountKey === 'string' &&
    typeof job.kind === 'string' &&
    job.kind in WEBHOOK_DEADLINE_MS &&
    typeof job.url === 'string' &&
    URL.canParse(job.url) &&
    (job.method === 'GET' || job.method === 'POST') &&
    (job.encoding === 'json' || job.encoding === 'form' || job.encoding === 'query') &&
    typeof job.body === 'object' &&
    job.body !== null &&
    !Array.isArray(job.body) &&
    (job.signing === 'legacy' || job.signing === 'jwt' || job.signing === 'none') &&
    typeof job.deadline === 'number' &&
    typeof job.createdAt === 'number' &&
    typeof job.attempt === 'number'
  );
}
