import {
  type AccountsRpc,
  ApiError,
  type NumbersRpc,
  rpc,
  WEBHOOK_DEADLINE_MS,
  type WebhookKind,
  type WebhooksRpc,
} from '@comms/core';
import { Hono } from 'hono';
import { bearer } from './bearer';

/**
 * The sandbox control plane (`/_sandbox/*`): lets a developer create accounts, read webhook
 * deliveries and reset state.
 * Mounted only when `SANDBOX_TOKEN` is set, and every call needs it as a bearer token.
 */
export const sandbox = new Hono<{ Bindings: Env }>();

sandbox.use(bearer);

/** Readiness: answers once the gateway is up (the dev script waits on it). */
sandbox.get('/health', (c) => c.json({ status: 'ok' }));

sandbox.post('/accounts', async (c) => {
  const text = await c.req.text();
  let init: unknown = {};
  if (text.trim() !== '') {
    try {
      init = JSON.parse(text);
    } catch {
      throw new ApiError({ kind: 'validation', detail: 'The body must be JSON' });
    }
  }
  if (init === null || typeof init !== 'object' || Array.isArray(init)) {
    throw new ApiError({ kind: 'validation', detail: 'The body must be a JSON object' });
  }
  const result = await rpc<AccountsRpc>(c.env.ACCOUNTS).createSandboxAccount(init);
  if (!result.ok) throw new ApiError({ kind: 'validation', detail: result.error });
  return c.json(result.account, 201);
});

/** An account's webhook deliveries, newest first, with every attempt and what was sent. */
sandbox.get('/webhooks', async (c) => {
  const apiKey = c.req.query('api_key');
  if (!apiKey) throw new ApiError({ kind: 'missing-parameter', detail: 'api_key is required' });
  const options: { limit?: number; kind?: WebhookKind } = {};
  const limit = c.req.query('limit');
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000) {
      throw new ApiError({ kind: 'validation', detail: 'limit must be an integer from 1 to 1000' });
    }
    options.limit = Number(limit);
  }
  const kind = c.req.query('kind');
  if (kind !== undefined) {
    if (!Object.hasOwn(WEBHOOK_DEADLINE_MS, kind)) {
      const kinds = Object.keys(WEBHOOK_DEADLINE_MS).join(', ');
      throw new ApiError({ kind: 'validation', detail: `kind must be one of ${kinds}` });
    }
    options.kind = kind as WebhookKind;
  }
  const deliveries = await rpc<WebhooksRpc>(c.env.WEBHOOKS).deliveries(apiKey, options);
  return c.json({ deliveries });
});

/** Wipes the state of every family in this deployment. */
sandbox.post('/reset', async (c) => {
  await Promise.all([
    rpc<AccountsRpc>(c.env.ACCOUNTS).reset(),
    rpc<NumbersRpc>(c.env.NUMBERS).reset(),
    rpc<WebhooksRpc>(c.env.WEBHOOKS).reset(),
  ]);
  return c.body(null, 204);
});
