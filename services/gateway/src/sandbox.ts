import {
  type AccountsRpc,
  ApiError,
  httpUrl,
  type NumbersRpc,
  rpc,
  type SmsRpc,
  type UsageReportingRpc,
  type VoiceRpc,
  validate,
  WEBHOOK_KINDS,
  type WebhookKind,
  type WebhooksRpc,
} from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
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
    if (!(WEBHOOK_KINDS as readonly string[]).includes(kind)) {
      const kinds = WEBHOOK_KINDS.join(', ');
      throw new ApiError({ kind: 'validation', detail: `kind must be one of ${kinds}` });
    }
    options.kind = kind as WebhookKind;
  }
  const deliveries = await rpc<WebhooksRpc>(c.env.WEBHOOKS).deliveries(apiKey, options);
  return c.json({ deliveries });
});

const testWebhook = z.object({
  api_key: z.string().min(1),
  url: httpUrl,
  method: z.enum(['GET', 'POST']).optional(),
  encoding: z.enum(['json', 'form', 'query']).optional(),
  signing: z.enum(['legacy', 'jwt', 'none']).optional(),
});

/** Sends a test webhook for an account through the real delivery path (signing, retries, log). */
sandbox.post('/webhooks', validate('json', testWebhook), async (c) => {
  const { api_key, ...webhook } = c.req.valid('json');
  if (!(await rpc<AccountsRpc>(c.env.ACCOUNTS).identity(api_key))) {
    throw new ApiError({ kind: 'not-found', detail: `No account has API key '${api_key}'` });
  }
  const id = await rpc<WebhooksRpc>(c.env.WEBHOOKS).sendTest(api_key, webhook);
  return c.json({ id }, 202);
});

/** Fast-forwards an account's waiting webhook retries instead of waiting out the backoff. */
sandbox.post('/webhooks/retry', validate('json', z.object({ api_key: z.string().min(1) })), async (c) => {
  const retried = await rpc<WebhooksRpc>(c.env.WEBHOOKS).retryNow(c.req.valid('json').api_key);
  return c.json({ retried });
});

/** A phone sends an SMS to a number: it reaches the renting account's webhook. */
sandbox.post(
  '/inbound-sms',
  validate('json', z.object({ from: z.string().min(1), to: z.string().min(1), text: z.string().min(1) })),
  async (c) => {
    const result = await rpc<SmsRpc>(c.env.SMS).inbound(c.req.valid('json'));
    if (!result.ok) {
      throw new ApiError({
        kind: result.reason === 'not-rented' ? 'not-found' : 'validation',
        detail: result.detail,
      });
    }
    return c.json({ message_ids: result.message_ids, webhook_url: result.webhook_url }, 202);
  },
);

/** What a simulated phone received: texts, and the words of text-to-speech calls. */
sandbox.get('/handsets/:msisdn/messages', async (c) => {
  const msisdn = c.req.param('msisdn').replace(/^\+/, '');
  if (!/^\d{7,15}$/.test(msisdn)) {
    throw new ApiError({ kind: 'validation', detail: 'msisdn must be an E.164 number of 7 to 15 digits' });
  }
  return c.json({ messages: await rpc<SmsRpc>(c.env.SMS).handsetMessages(msisdn) });
});

/**
 * A simulated phone calls a rented number: the number's application answers (its `answer_url` NCCO,
 * events to its `event_url`). 201 `{uuid, conversation_uuid, status, direction}`; 404 when nobody
 * rents the number, 409 when it is not linked to an application with voice webhooks. Steer the caller
 * afterwards with `POST /_sandbox/calls/:uuid` (`dtmf`, `speech`, `hangup`).
 */
sandbox.post(
  '/handsets/:msisdn/calls',
  validate(
    'json',
    z.object({ to: z.string().regex(/^\+?\d{7,15}$/, 'Must be an E.164 number of 7 to 15 digits') }),
  ),
  async (c) => {
    const from = c.req.param('msisdn').replace(/^\+/, '');
    if (!/^\d{7,15}$/.test(from)) {
      throw new ApiError({ kind: 'validation', detail: 'msisdn must be an E.164 number of 7 to 15 digits' });
    }
    const to = c.req.valid('json').to.replace(/^\+/, '');
    const result = await rpc<VoiceRpc>(c.env.VOICE).inboundCall({ from, to }, new URL(c.req.url).origin);
    if (!result.ok) {
      throw new ApiError({
        kind: result.reason === 'not-rented' ? 'not-found' : 'conflict',
        detail: result.detail,
      });
    }
    return c.json(
      {
        uuid: result.uuid,
        conversation_uuid: result.conversation_uuid,
        status: 'started',
        direction: 'inbound',
      },
      201,
    );
  },
);

/** The most synthetic records one seeding call writes; larger counts go in several calls. */
const SEED_BATCH = 20_000;

const usageSeed = z.object({
  api_key: z.string().min(1),
  count: z.number().int().min(1).max(1_000_000),
  hours: z
    .number()
    .positive()
    .max(24 * 30)
    .optional(),
});

/**
 * Load-test data: `count` outbound SMS usage records spread evenly over the last `hours` (24), as if
 * the account had sent them, without charging it; answers 201 `{seeded}`.
 */
sandbox.post('/usage/seed', validate('json', usageSeed), async (c) => {
  const { api_key, count, hours = 24 } = c.req.valid('json');
  const ledger = rpc<AccountsRpc & UsageReportingRpc>(c.env.ACCOUNTS);
  if (!(await ledger.identity(api_key))) {
    throw new ApiError({ kind: 'not-found', detail: `No account has API key '${api_key}'` });
  }
  const to = Date.now();
  const span = hours * 3600_000;
  let seeded = 0;
  // Each batch takes its share of the window, so the records stay evenly spread and in order.
  while (seeded < count) {
    const n = Math.min(SEED_BATCH, count - seeded);
    const from = to - span + (span * seeded) / count;
    seeded += await ledger.seedUsage(api_key, { count: n, from, to: from + (span * n) / count });
  }
  return c.json({ seeded }, 201);
});

/** A family that offers nothing to the gateway but a sandbox reset (verify has no RPC contract). */
interface Resettable {
  reset(): Promise<void>;
}

const callControl = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.enum(['answer', 'busy', 'reject', 'machine', 'hangup']) }),
    z.object({ action: z.literal('dtmf'), digits: z.string().regex(/^[0-9*#]{1,64}$/) }),
    z.object({ action: z.literal('speech'), text: z.string().min(1).max(1000) }),
  ],
  { error: 'action must be one of answer, busy, reject, machine, hangup, dtmf, speech' },
);

/**
 * Steers the simulated callee of a call: answer, busy, reject, voicemail (`machine`) while it rings;
 * hang up, press keys (`dtmf` with `digits`) or speak (`speech` with `text`) once it is answered.
 * Answers 200 `{uuid, status, consumed}` (`consumed`: whether a running `input` or `record` took the
 * keys or words), 404 for an unknown call, 409 when the call is not in a state to take the action.
 */
sandbox.post('/calls/:uuid', validate('json', callControl), async (c) => {
  const uuid = c.req.param('uuid');
  const result = await rpc<VoiceRpc>(c.env.VOICE).control(uuid, c.req.valid('json'));
  if (!result.ok) {
    throw new ApiError({
      kind: result.reason === 'not-found' ? 'not-found' : 'conflict',
      detail: result.detail,
    });
  }
  return c.json({ uuid, status: result.status, consumed: result.consumed });
});

/** What the simulated network knows of a call: status history, timers, running action, timeline. */
sandbox.get('/calls/:uuid', async (c) => {
  const uuid = c.req.param('uuid');
  const view = await rpc<VoiceRpc>(c.env.VOICE).inspect(uuid);
  if (!view) throw new ApiError({ kind: 'not-found', detail: `Call '${uuid}' was not found` });
  return c.json(view);
});

/** Wipes the state of every family in this deployment. */
sandbox.post('/reset', async (c) => {
  await Promise.all([
    rpc<AccountsRpc>(c.env.ACCOUNTS).reset(),
    rpc<NumbersRpc>(c.env.NUMBERS).reset(),
    rpc<WebhooksRpc>(c.env.WEBHOOKS).reset(),
    rpc<SmsRpc>(c.env.SMS).reset(),
    rpc<VoiceRpc>(c.env.VOICE).reset(),
    rpc<Resettable>(c.env.REPORTS).reset(),
    rpc<Resettable>(c.env.VERIFY).reset(),
  ]);
  return c.body(null, 204);
});
