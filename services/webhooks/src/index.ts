import { WorkerEntrypoint } from 'cloudflare:workers';
import {
  type JsonObject,
  type TestWebhook,
  type WebhookDelivery,
  type WebhookKind,
  type WebhooksRpc,
  webhookJob,
} from '@comms/core';
import { consumeWebhooks } from './consumer';
import { logOf, resetLogs } from './logs';

export { StateDirectory as LogDirectory } from '@comms/core/durable';
export { DeliveryLog } from './durable/delivery-log';

/**
 * The webhooks worker: consumes the `webhooks` queue, and offers the delivery log and a reset as
 * RPC for its siblings and the gateway. It has no HTTP routes.
 */
export default class WebhooksService extends WorkerEntrypoint<Env> implements WebhooksRpc {
  override async queue(batch: MessageBatch<unknown>): Promise<void> {
    await consumeWebhooks(batch, this.env);
  }

  async deliveries(
    apiKey: string,
    options: { limit?: number; kind?: WebhookKind } = {},
  ): Promise<WebhookDelivery[]> {
    const rows = await logOf(this.env, apiKey).deliveries(options);
    return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as JsonObject }));
  }

  async sendTest(apiKey: string, webhook: TestWebhook): Promise<string> {
    const job = webhookJob({
      accountKey: apiKey,
      kind: 'generic',
      url: webhook.url,
      method: webhook.method ?? 'POST',
      encoding: webhook.encoding ?? (webhook.method === 'GET' ? 'query' : 'json'),
      body: { type: 'test', api_key: apiKey, text: 'A test webhook from the sandbox' },
      signing: webhook.signing ?? 'none',
    });
    await this.env.WEBHOOKS_QUEUE.send(job);
    return job.id;
  }

  retryNow(apiKey: string): Promise<number> {
    return logOf(this.env, apiKey).retryNow();
  }

  reset(): Promise<void> {
    return resetLogs(this.env);
  }
}
