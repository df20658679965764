import {
  ApiError,
  authOf,
  ERROR_TYPES,
  errorStyle,
  httpUrl,
  paging,
  problemStyle,
  uuid,
  validate,
} from '@comms/core';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI } from 'jose';
import { z } from 'zod';
import { accountOf, registryOf } from '../accounts';
import type { StoredApplication } from '../durable/account';
import { type AccountsEnv, auth } from '../middleware';

/** Applications API v2 (`/v2/applications`): Basic auth, problem bodies. */
export const applications = new Hono<AccountsEnv>();

const BASE = '/v2/applications';
const PAYLOAD_VALIDATION = 'https://developer.nexmo.com/api-errors/application#payload-validation';
const LIST_VALIDATION = 'https://developer.nexmo.com/api-errors/application#list-validation';
const VOICE_REGIONS = ['na-east', 'na-west', 'eu-west', 'eu-east', 'apac-sng', 'apac-australia'] as const;

/** Write requests must say they carry JSON; anything else is refused before it is parsed. */
const jsonOnly = createMiddleware<AccountsEnv>(async (c, next) => {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError({
      kind: 'unsupported-media-type',
      type: 'https://developer.nexmo.com/api-errors#content-type-header',
      title: 'Unsupported Content-Type header',
      detail: "Unsupported Content-Type header provided. Must be one of the following: 'application/json'",
    });
  }
  await next();
});

// `/*` also matches the bare collection path, so one registration covers every route.
applications.use(`${BASE}/*`, errorStyle(problemStyle()), auth(['basic']));

function webhook(defaultMethod: 'GET' | 'POST') {
  return z.object({
    address: httpUrl,
    http_method: z.enum(['GET', 'POST'], { error: 'Must be one of: GET, POST' }).default(defaultMethod),
  });
}

/** The Messages API only ever POSTs to its webhooks, so the reference allows nothing else. */
const postWebhook = z.object({
  address: httpUrl,
  http_method: z.enum(['POST'], { error: 'Must be one of: POST' }).default('POST'),
});

/** A voice webhook, with how long (milliseconds) the platform waits to connect and to read. */
function voiceWebhook(defaultMethod: 'GET' | 'POST', maxSocketTimeout: number) {
  const connectTimeout = z.number().int().min(300).max(1000).optional();
  return webhook(defaultMethod).extend({
    // The vendor's reference spells it `connection_timeout`, its SDKs `connect_timeout`: take either as sent.
    connect_timeout: connectTimeout,
    connection_timeout: connectTimeout,
    socket_timeout: z.number().int().min(1000).max(maxSocketTimeout).optional(),
  });
}

const capabilities = z.object({
  voice: z
    .object({
      webhooks: z
        .object({
          answer_url: voiceWebhook('GET', 5000).optional(),
          fallback_answer_url: voiceWebhook('GET', 5000).optional(),
          event_url: voiceWebhook('POST', 10_000).optional(),
        })
        .optional(),
      signed_callbacks: z.boolean().optional(),
      /** Hours; 0 keeps named conversations forever. */
      conversations_ttl: z.number().int().min(0).max(744).optional(),
      /** Days. */
      leg_persistence_time: z.number().int().min(1).max(31).optional(),
      region: z.enum(VOICE_REGIONS).optional(),
      payment_enabled: z.boolean().optional(),
    })
    .optional(),
  messages: z
    .object({
      webhooks: z
        .object({ inbound_url: postWebhook.optional(), status_url: postWebhook.optional() })
        .optional(),
      version: z.enum(['v0.1', 'v1']).optional(),
      authenticate_inbound_media: z.boolean().optional(),
    })
    .optional(),
  rtc: z
    .object({
      webhooks: z.object({ event_url: webhook('POST').optional() }).optional(),
      signed_callbacks: z.boolean().optional(),
      leg_persistence_time: z.number().int().min(1).max(31).optional(),
    })
    .optional(),
  meetings: z
    .object({
      webhooks: z
        .object({
          room_changed: webhook('POST').optional(),
          session_changed: webhook('POST').optional(),
          recording_changed: webhook('POST').optional(),
        })
        .optional(),
    })
    .optional(),
  verify: z
    .object({
      webhooks: z.object({ status_url: webhook('POST').optional() }).optional(),
      version: z.enum(['v2']).optional(),
    })
    .optional(),
  vbc: z.strictObject({}, { error: 'Must be an empty object' }).optional(),
});

/** Whether `pem` is an SPKI RSA public key strong enough for the RS256 tokens it will verify. */
async function isRsaPublicKey(pem: string): Promise<boolean> {
  try {
    const key = await importSPKI(pem, 'RS256');
    return ((key.algorithm as { modulusLength?: number }).modulusLength ?? 0) >= 2048;
  } catch {
    return false;
  }
}

const applicationBody = z.object(
  {
    name: z
      .string({ error: (issue) => (issue.input === undefined ? 'Is required' : 'Must be a string') })
      .trim()
      .min(1, 'Must not be empty'),
    keys: z
      .object({
        public_key: z
          .string()
          .max(10_000)
          .refine(isRsaPublicKey, 'Must be an RSA public key of at least 2048 bits in PEM (SPKI) format')
          .optional(),
      })
      .optional(),
    capabilities: capabilities.default({}),
    // The reference's default.
    privacy: z.object({ improve_ai: z.boolean().default(true) }).default({ improve_ai: true }),
  },
  { error: 'Must be a JSON object' },
);

type ApplicationInput = z.infer<typeof applicationBody>;

function toStored(
  id: string,
  input: ApplicationInput,
  publicKey: string,
  createdAt: number,
): StoredApplication {
  const { name, capabilities, privacy } = input;
  const body = { id, name, keys: { public_key: publicKey }, capabilities, privacy };
  return { id, name, body: JSON.stringify(body), publicKey, createdAt };
}

/** The application as the API shows it; `privateKey` only in the response that created it. */
function view(app: StoredApplication, privateKey?: string) {
  const body = JSON.parse(app.body) as { keys: { public_key: string } };
  return {
    ...body,
    keys: privateKey ? { ...body.keys, private_key: privateKey } : body.keys,
    _links: { self: { href: `${BASE}/${app.id}` } },
  };
}

/** Unknown ids and other accounts' applications get the same answer, so that neither leaks. */
function notFound(id: string): ApiError {
  return new ApiError({
    kind: 'not-found',
    type: ERROR_TYPES.notFound,
    title: 'Not Found',
    detail: `ID '${id}' does not exist, or you do not have access`,
  });
}

const validBody = validate('json', applicationBody, { type: PAYLOAD_VALIDATION });

applications.get(BASE, validate('query', paging, { type: LIST_VALIDATION }), async (c) => {
  const { page_size, page } = c.req.valid('query');
  const account = accountOf(c.env, authOf(c).apiKey);
  const { total, items } = await account.listApplications((page - 1) * page_size, page_size);
  const totalPages = Math.ceil(total / page_size);
  const link = (p: number) => ({ href: `${BASE}?page_size=${page_size}&page=${p}` });
  return c.json({
    page_size,
    page,
    total_items: total,
    total_pages: totalPages,
    _embedded: { applications: items.map((app) => view(app)) },
    _links: {
      self: link(page),
      first: link(1),
      last: link(Math.max(totalPages, 1)),
      ...(page > 1 ? { prev: link(page - 1) } : {}),
      ...(page < totalPages ? { next: link(page + 1) } : {}),
    },
  });
});

applications.post(BASE, jsonOnly, validBody, async (c) => {
  const { apiKey } = authOf(c);
  const input = c.req.valid('json');
  let publicKey = input.keys?.public_key;
  let privateKey: string | undefined;
  if (!publicKey) {
    const pair = await generateKeyPair('RS256', { extractable: true });
    publicKey = await exportSPKI(pair.publicKey);
    privateKey = await exportPKCS8(pair.privateKey);
  }
  const app = toStored(uuid(), input, publicKey, Date.now());
  // Registered first: a registry entry whose application was never stored resolves to nothing.
  await registryOf(c.env).registerApplication(app.id, apiKey);
  await accountOf(c.env, apiKey).putApplication(app);
  return c.json(view(app, privateKey), 201);
});

applications.get(`${BASE}/:id`, async (c) => {
  const id = c.req.param('id');
  const app = await accountOf(c.env, authOf(c).apiKey).getApplication(id);
  if (!app) throw notFound(id);
  return c.json(view(app));
});

applications.put(`${BASE}/:id`, jsonOnly, validBody, async (c) => {
  const id = c.req.param('id');
  const account = accountOf(c.env, authOf(c).apiKey);
  const existing = await account.getApplication(id);
  if (!existing) throw notFound(id);
  const input = c.req.valid('json');
  const app = toStored(id, input, input.keys?.public_key ?? existing.publicKey, existing.createdAt);
  if (!(await account.replaceApplication(app))) throw notFound(id);
  return c.json(view(app));
});

applications.delete(`${BASE}/:id`, async (c) => {
  const id = c.req.param('id');
  if (!(await accountOf(c.env, authOf(c).apiKey).deleteApplication(id))) throw notFound(id);
  // Only after the application is gone, so that JWT lookups never find a half-deleted one.
  await registryOf(c.env).unregisterApplication(id);
  return c.body(null, 204);
});
