import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { type WebhookDelivery, type WebhookJob, type WebhooksRpc, webhookJob } from '@comms/core';
import { vi } from 'vitest';
import { consumeWebhooks } from '../src/consumer';

/** The worker under test, through its default entrypoint, typed by its contract as siblings see it. */
export const worker = exports.default as unknown as WebhooksRpc;

/** The dead-letter sink of vitest.config.ts. */
const sink = (env as unknown as { DLQ_SINK: Fetcher }).DLQ_SINK;

/** The jobs that reached the dead-letter queue so far. */
export async function deadLetters(): Promise<WebhookJob[]> {
  return (await sink.fetch('https://dlq-sink.test/')).json();
}

/** The delivery log of an account, for driving its alarm. */
export function logStub(accountKey: string) {
  return env.DELIVERY_LOG.get(env.DELIVERY_LOG.idFromName(accountKey));
}

/** An account key the accounts stub of vitest.config.ts understands, unique per call. */
export function accountKey(flag: 'signed' | 'plain' | 'ghost', method = 'sha256'): string {
  return `${flag}-${method}-${crypto.randomUUID().slice(0, 8)}`;
}

export const RECEIVER = 'https://receiver.test';

/** `fetch` before any test replaced it. */
const realFetch = globalThis.fetch.bind(globalThis);

/** A job for the test receiver, with the contract's defaults. */
export function job(init: Partial<Parameters<typeof webhookJob>[0]> & { accountKey: string }): WebhookJob {
  return webhookJob({
    kind: 'sms-receipt',
    url: `${RECEIVER}/hook`,
    method: 'POST',
    encoding: 'json',
    body: { msisdn: '447700900000', status: 'delivered' },
    signing: 'none',
    ...init,
  });
}

/** Hands jobs to the consumer as one batch, the way the queue does, and answers how each was settled. */
export async function consume(...jobs: WebhookJob[]): ReturnType<typeof getQueueResult> {
  const batch = createMessageBatch(
    'webhooks',
    jobs.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await consumeWebhooks(batch, env);
  return getQueueResult(batch, ctx);
}

/** A request as the receiver saw it. */
export interface Received {
  url: URL;
  method: string;
  headers: Headers;
  body: string;
}

/**
 * A webhook receiver on `RECEIVER`: answers each request with the next status of `statuses` (the
 * last one over and over) and keeps what it received. The worker runs in the tests' isolate, so
 * replacing `fetch` here intercepts its outbound requests; anything else passes through.
 */
export function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== RECEIVER) return realFetch(input, init);
    const body = new TextDecoder().decode(await request.arrayBuffer());
    received.push({ url, method: request.method, headers: request.headers, body });
    return new Response('ok', { status: statuses[Math.min(received.length, statuses.length) - 1] });
  });
  return received;
}

/** The deliveries of an account, newest first. */
export function deliveries(key: string, options?: { limit?: number }): Promise<WebhookDelivery[]> {
  return worker.deliveries(key, options);
}

/** The one delivery of an account. */
export async function onlyDelivery(key: string): Promise<WebhookDelivery> {
  const all = await deliveries(key);
  if (all.length !== 1) throw new Error(`expected one delivery, found ${all.length}`);
  return all[0]!;
}

/**
 * Polls `read` until `done` holds. Unlike `expect.poll`, it never moves a mocked clock (vitest
 * advances fake timers while polling), so the times a test reads stay exact.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = performance.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`still not done: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
