import {
  ApiError,
  type AuthContext,
  authOf,
  ERROR_TYPES,
  type FamilyEnv,
  type JsonObject,
  parseWith,
} from '@comms/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { randomApplicationNumber } from '../application-numbers';
import { invalid, readCreateBody } from '../create-body';
import { CALLS_PER_SECOND } from '../durable/call-index';
import type { CallEndpoint } from '../endpoints';
import { urlList } from '../endpoints';
import { CALL_STATUSES } from '../events';
import { parseNcco } from '../ncco';
import { accounts, indexOf, legOf } from '../objects';
import { legSetup } from '../setup';
import { leg, notFound, readJson, refused } from './shared';

/** `/v1/calls` (spec 4.7): create, list, read and update calls. */
export const calls = new Hono<FamilyEnv<Env>>();

calls.post('/v1/calls', async (c) => {
  const auth = authOf(c);
  const body = readCreateBody(await readJson(c));
  const event = body.event ?? (await applicationEventUrl(c.env, auth));
  if (!event) {
    throw invalid([{ name: 'event_url', reason: 'Required unless the application has a voice event_url' }]);
  }
  const settings = await accounts(c.env).settings(auth.apiKey);
  const perSecond = Math.min(CALLS_PER_SECOND, settings?.['max-calls-per-second'] ?? CALLS_PER_SECOND);
  if (!(await indexOf(c.env, auth.apiKey).admit(perSecond))) {
    throw new ApiError({
      kind: 'throttled',
      type: ERROR_TYPES.throttled,
      detail: `At most ${perSecond} call${perSecond === 1 ? '' : 's'} a second may be created for this account`,
    });
  }
  const from: CallEndpoint = body.from ?? (await randomFromNumber(c.env, auth));
  const uuid = crypto.randomUUID();
  const conversationUuid = `CON-${crypto.randomUUID()}`;
  await legOf(c.env, uuid).start(
    legSetup({
      uuid,
      conversationUuid,
      apiKey: auth.apiKey,
      applicationId: auth.applicationId ?? '',
      to: body.to,
      from,
      event,
      answer: body.answer,
      ncco: body.ncco,
      parentUuid: null,
      machineDetection: body.machineDetection,
      lengthTimerSeconds: body.lengthTimer,
      ringingTimerSeconds: body.ringingTimer,
      baseUrl: new URL(c.req.url).origin,
    }),
  );
  return c.json({ uuid, status: 'started', direction: 'outbound', conversation_uuid: conversationUuid }, 201);
});

/** The application's own `event_url`, used when a create body has none (spec 4.7). */
async function applicationEventUrl(
  env: Env,
  auth: AuthContext,
): Promise<{ url: string; method: 'GET' | 'POST' } | null> {
  if (!auth.applicationId) return null;
  const event = (await accounts(env).applicationVoiceWebhooks(auth.applicationId))?.event_url;
  if (!event) return null;
  return { url: event.address, method: event.http_method === 'GET' ? 'GET' : 'POST' };
}

/** `random_from_number`: a number the account links to the calling application. */
async function randomFromNumber(env: Env, auth: AuthContext): Promise<CallEndpoint> {
  const number = await randomApplicationNumber(env, auth.apiKey, auth.applicationId);
  if (number === null) {
    throw invalid([
      { name: 'random_from_number', reason: 'The application has no linked number with the VOICE feature' },
    ]);
  }
  return { type: 'phone', number };
}

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'Must be an ISO 8601 date-time');

const listQuery = z.object({
  status: z.enum(CALL_STATUSES).optional(),
  date_start: isoDate.optional(),
  date_end: isoDate.optional(),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  record_index: z.coerce.number().int().min(0).default(0),
  order: z.enum(['asc', 'desc']).default('asc'),
  conversation_uuid: z.string().min(1).optional(),
});

calls.get('/v1/calls', async (c) => {
  const auth = authOf(c);
  const query = parseWith(listQuery, c.req.query());
  const text = await indexOf(c.env, auth.apiKey).list({
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.date_start !== undefined ? { dateStart: Date.parse(query.date_start) } : {}),
    ...(query.date_end !== undefined ? { dateEnd: Date.parse(query.date_end) } : {}),
    ...(query.conversation_uuid !== undefined ? { conversationUuid: query.conversation_uuid } : {}),
    order: query.order,
    pageSize: query.page_size,
    recordIndex: query.record_index,
  });
  const page = JSON.parse(text) as { count: number; calls: JsonObject[] };
  const origin = new URL(c.req.url).origin;
  const link = (recordIndex: number) => ({ href: pageHref(origin, query, recordIndex) });
  const links: JsonObject = { self: link(query.record_index) };
  if (query.record_index + query.page_size < page.count)
    links['next'] = link(query.record_index + query.page_size);
  if (query.record_index > 0) links['prev'] = link(Math.max(0, query.record_index - query.page_size));
  const body: JsonObject = {
    count: page.count,
    page_size: query.page_size,
    record_index: query.record_index,
    _links: links,
    _embedded: { calls: page.calls },
  };
  return c.json(body);
});

/** An absolute page link: the Node SDK reads `record_index` of `next` with `new URL`. */
function pageHref(origin: string, query: z.infer<typeof listQuery>, recordIndex: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, record_index: recordIndex })) {
    if (value !== undefined) params.set(name, String(value));
  }
  return `${origin}/v1/calls?${params}`;
}

calls.get('/v1/calls/:uuid', async (c) => {
  const uuid = c.req.param('uuid');
  const call = await leg(c.env, uuid).view(authOf(c).apiKey);
  if (call === null) throw notFound(uuid);
  return c.body(call, 200, { 'content-type': 'application/json' });
});

const transferDestination = z
  .object({
    type: z.literal('ncco', { error: 'type must be ncco' }),
    ncco: z.unknown().optional(),
    url: urlList.optional(),
  })
  .refine((d) => (d.ncco === undefined) !== (d.url === undefined), {
    message: 'Give either ncco or url',
    path: ['ncco'],
  });

const update = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('hangup') }),
    z.object({ action: z.literal('mute') }),
    z.object({ action: z.literal('unmute') }),
    z.object({ action: z.literal('earmuff') }),
    z.object({ action: z.literal('unearmuff') }),
    z.object({ action: z.literal('transfer'), destination: transferDestination }),
  ],
  { error: 'action must be one of hangup, mute, unmute, earmuff, unearmuff, transfer' },
);

calls.put('/v1/calls/:uuid', async (c) => {
  const auth = authOf(c);
  const uuid = c.req.param('uuid');
  const body = parseWith(update, await readJson(c));
  const target = leg(c.env, uuid);
  if (body.action !== 'transfer') {
    refused(await target.input({ kind: body.action }, auth.apiKey), uuid);
    return c.body(null, 204);
  }
  const identity = await target.identity(auth.apiKey);
  if (!identity) throw notFound(uuid);
  const { destination } = body;
  const parsed =
    destination.url !== undefined
      ? await c.env.NCCO_FETCHER.answer(
          { url: destination.url[0]!, method: 'GET', params: identity },
          { apiKey: auth.apiKey, applicationId: auth.applicationId ?? '' },
        )
      : parseNcco(destination.ncco, 'destination.ncco');
  if (!parsed.ok) throw invalid(parsed.invalidParameters);
  refused(await target.input({ kind: 'transfer', actions: parsed.actions }, auth.apiKey), uuid);
  return c.body(null, 204);
});
