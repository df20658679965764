import { type AccountsRpc, ApiError, rpc } from '@comms/core';
import { Hono } from 'hono';
import { bearer } from './bearer';

/**
 * The sandbox control plane (`/_sandbox/*`): lets a developer create accounts and reset state.
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

/** Wipes the state of every family in this deployment. */
sandbox.post('/reset', async (c) => {
  await rpc<AccountsRpc>(c.env.ACCOUNTS).reset();
  return c.body(null, 204);
});
