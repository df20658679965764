import { httpUrl } from '@comms/core';
import { z } from 'zod';

/** E.164 digits without '+' (spec 8: a phone number is 7 to 15 characters). */
export const phoneNumber = z.string().regex(/^\d{7,15}$/, 'Must be a number of 7 to 15 digits');

/** Digits sent when a phone answers: `p` is a half-second pause. */
const dtmfAnswer = z.string().regex(/^[0-9*#p]*$/, 'Must contain only 0-9, *, # and p');

/** The l16 audio formats a websocket endpoint may ask for. */
export const WEBSOCKET_CONTENT_TYPES = ['audio/l16;rate=8000', 'audio/l16;rate=16000'] as const;

const phone = z.object({
  type: z.literal('phone'),
  number: phoneNumber,
  dtmfAnswer: dtmfAnswer.optional(),
});

const sip = z.object({
  type: z.literal('sip'),
  uri: z
    .string()
    .min(1)
    .max(50)
    .regex(/^sips?:/, 'Must be a sip: or sips: URI'),
  headers: z.record(z.string(), z.unknown()).optional(),
  standard_headers: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A websocket endpoint. The API names the audio format `content-type`; the Node SDK sends the
 * endpoint as its caller wrote it, `contentType`, so both are read.
 */
const websocket = z
  .object({
    type: z.literal('websocket'),
    uri: z
      .string()
      .min(1)
      .max(50)
      .regex(/^wss?:\/\//, 'Must be a ws:// or wss:// URI'),
    'content-type': z.enum(WEBSOCKET_CONTENT_TYPES).optional(),
    contentType: z.enum(WEBSOCKET_CONTENT_TYPES).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .refine((ws) => ws['content-type'] !== undefined || ws.contentType !== undefined, {
    message: 'content-type is required',
    path: ['content-type'],
  })
  .transform(({ contentType, ...ws }) => ({ ...ws, 'content-type': (ws['content-type'] ?? contentType)! }));

const vbc = z.object({ type: z.literal('vbc'), extension: z.string().min(1).max(50) });

/** A Client SDK user; only an NCCO `connect` reaches one. */
const app = z.object({ type: z.literal('app'), user: z.string().min(1).max(100) });

/** The endpoints a call may be placed to (spec 2.9): `phone`, `sip`, `websocket`, `vbc`. */
export const callEndpoint = z.discriminatedUnion('type', [phone, sip, websocket, vbc], {
  error: 'type must be one of phone, sip, websocket, vbc',
});

/** The endpoints an NCCO `connect` may reach: the call endpoints and app users. */
export const connectEndpoint = z.discriminatedUnion('type', [phone, sip, websocket, vbc, app], {
  error: 'type must be one of phone, sip, websocket, vbc, app',
});

export type CallEndpoint = z.infer<typeof connectEndpoint>;

/** `from` of a call: always a phone number. */
export const fromEndpoint = z.object({
  type: z.literal('phone', { error: 'type must be phone' }),
  number: phoneNumber,
});

/** A list of webhook URLs of which the first is used, as the API takes `event_url` and `answer_url`. */
export const urlList = z.array(httpUrl).min(1, 'Must hold at least one URL');

/**
 * How an endpoint shows in events and the call object: its number, URI or extension.
 *
 * @example
 * endpointAddress({ type: 'sip', uri: 'sip:alice@example.com' }) // 'sip:alice@example.com'
 */
export function endpointAddress(endpoint: CallEndpoint): string {
  switch (endpoint.type) {
    case 'phone':
      return endpoint.number;
    case 'sip':
    case 'websocket':
      return endpoint.uri;
    case 'vbc':
      return endpoint.extension;
    case 'app':
      return endpoint.user;
  }
}

/**
 * The endpoint as the call object shows it (`to` of spec 2.9): its type and address.
 *
 * @example
 * endpointObject({ type: 'phone', number: '447700900000' }) // { type: 'phone', number: '447700900000' }
 */
export function endpointObject(endpoint: CallEndpoint): Record<string, string> {
  switch (endpoint.type) {
    case 'phone':
      return { type: 'phone', number: endpoint.number };
    case 'sip':
    case 'websocket':
      return { type: endpoint.type, uri: endpoint.uri };
    case 'vbc':
      return { type: 'vbc', extension: endpoint.extension };
    case 'app':
      return { type: 'app', user: endpoint.user };
  }
}
