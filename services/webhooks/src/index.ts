import { WorkerEntrypoint } from 'cloudflare:workers';
import type { JsonObject, WebhookDelivery, WebhookKind, WebhooksRpc } from '@comms/core';
import { consumeWebhooks } from './consumer';
import { logOf, resetLogs } from './logs';

export { DeliveryLog } from './durable/delivery-log';
export { LogDirectory } from './durable/log-directory';

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

  reset(): Promise<void> {
    return resetLogs(this.env);
  }
}
