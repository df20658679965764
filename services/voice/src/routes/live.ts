import { authOf, type FamilyEnv, parseWith } from '@comms/core';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { urlList } from '../endpoints';
import type { CallInput } from '../machine';
import { leg, readJson, refused } from './shared';

/** Talk, stream and DTMF into a live call (reference `voice.yml`: `/{uuid}/talk`, `/stream`, `/dtmf`). */
export const live = new Hono<FamilyEnv<Env>>();

/** A number or the numeric string the SDK sends (`level: "0"`). */
const level = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().min(-1).max(1));

const talk = z.object({
  text: z.string().min(1).max(1500),
  language: z.string().min(1).optional(),
  style: z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]).optional(),
  voice_name: z.string().min(1).optional(),
  loop: z.number().int().min(0).optional(),
  level: level.optional(),
  premium: z.boolean().optional(),
});

const stream = z.object({
  stream_url: urlList,
  loop: z.number().int().min(0).optional(),
  level: level.optional(),
});

const dtmf = z.object({ digits: z.string().regex(/^[0-9*#p]{1,64}$/, 'Must be 1 to 64 of 0-9, *, # and p') });

/** Applies a live-call input for the caller's account and answers the vendor's `{message, uuid}`. */
async function control(c: Context<FamilyEnv<Env>>, input: CallInput, message: string) {
  const uuid = c.req.param('uuid')!;
  refused(await leg(c.env, uuid).input(input, authOf(c).apiKey), uuid);
  return c.json({ message, uuid });
}

live.put('/v1/calls/:uuid/talk', async (c) => {
  const body = parseWith(talk, await readJson(c));
  return control(c, { kind: 'talk', text: body.text }, 'Talk started');
});

live.delete('/v1/calls/:uuid/talk', (c) => control(c, { kind: 'stop-talk' }, 'Talk stopped'));

live.put('/v1/calls/:uuid/stream', async (c) => {
  const body = parseWith(stream, await readJson(c));
  return control(c, { kind: 'stream', url: body.stream_url[0]! }, 'Stream started');
});

live.delete('/v1/calls/:uuid/stream', (c) => control(c, { kind: 'stop-stream' }, 'Stream stopped'));

live.put('/v1/calls/:uuid/dtmf', async (c) => {
  const body = parseWith(dtmf, await readJson(c));
  return control(c, { kind: 'play-dtmf', digits: body.digits }, 'DTMF sent');
});

const dtmfListener = z.object({
  event_url: urlList,
  event_method: z.enum(['GET', 'POST']).optional(),
});

/** Asynchronous DTMF: every key the callee presses goes to `event_url` as an input event. */
live.put('/v1/calls/:uuid/input/dtmf', async (c) => {
  const body = parseWith(dtmfListener, await readJson(c));
  const target = { url: body.event_url[0]!, method: body.event_method ?? 'POST' } as const;
  return control(c, { kind: 'dtmf-listener', target }, 'DTMF listener registered');
});

live.delete('/v1/calls/:uuid/input/dtmf', (c) =>
  control(c, { kind: 'dtmf-listener', target: null }, 'DTMF listener removed'),
);
