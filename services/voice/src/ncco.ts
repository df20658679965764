import { httpUrl, type InvalidParameter, invalidParameters } from '@comms/core';
import { z } from 'zod';
import { connectEndpoint } from './endpoints';

/**
 * The Call Control Object (reference `ncco-schema.json`, widened to what the vendor's SDKs send
 * today: `wait`, `notify`, `input` with `type`/`dtmf`/`speech`, `app` endpoints). An NCCO that fails
 * here is refused at creation (400) or, when it comes from an `answer_url`, ends the call with the
 * vendor's error event.
 */

/** Languages of the reference schema and of the Node SDK's `TTSLanguages`, which lists more. */
const LANGUAGES = new Set([
  'af-ZA',
  'ar',
  'bg-BG',
  'bn-IN',
  'ca-ES',
  'cmn-CN',
  'cmn-TW',
  'cs-CZ',
  'cy-GB',
  'da-DK',
  'de-AT',
  'de-DE',
  'de-ET',
  'el-GR',
  'en-AU',
  'en-GB',
  'en-GB-SCT',
  'en-GB-WLS',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-US',
  'en-ZA',
  'es-CO',
  'es-ES',
  'es-MX',
  'es-US',
  'eu-ES',
  'fi-FI',
  'fil-PH',
  'fr-CA',
  'fr-FR',
  'gl-ES',
  'gu-IN',
  'he-IL',
  'hi-IN',
  'hu-HU',
  'id-ID',
  'is-IS',
  'it-IT',
  'ja-JP',
  'kn-IN',
  'ko-KR',
  'lv-LV',
  'ml-IN',
  'ms-MY',
  'nb-NO',
  'nl-BE',
  'nl-NL',
  'no-NO',
  'pa-IN',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'ro-RO',
  'ru-RU',
  'sk-SK',
  'sr-RS',
  'sv-SE',
  'ta-IN',
  'te-IN',
  'th-TH',
  'tr-TR',
  'uk-UA',
  'vi-VN',
  'yue-CN',
]);

const language = z.string().refine((s) => LANGUAGES.has(s), 'Must be a supported language code');

/** A number given as JSON number or as the numeric string some SDKs send (`level: "0.4"`). */
const numeric = (schema: z.ZodNumber) =>
  z.union([
    schema,
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number)
      .pipe(schema),
  ]);

const eventUrl = z.array(httpUrl).min(1, 'Must hold at least one URL');
const eventMethod = z.enum(['GET', 'POST']);

const talk = z.object({
  action: z.literal('talk'),
  text: z.string().min(1, 'Must not be empty').max(1500),
  bargeIn: z.boolean().optional(),
  loop: z.number().int().min(0).optional(),
  level: numeric(z.number().min(-1).max(1)).optional(),
  language: language.optional(),
  style: numeric(z.number().int().min(0)).optional(),
  voiceName: z.string().min(1).optional(),
  premium: z.boolean().optional(),
});

const stream = z.object({
  action: z.literal('stream'),
  streamUrl: z.array(httpUrl).min(1, 'Must hold at least one URL'),
  level: numeric(z.number().min(-1).max(1)).optional(),
  bargeIn: z.boolean().optional(),
  loop: z.number().int().min(0).optional(),
});

const dtmfSettings = z.object({
  timeOut: z.number().min(0).max(10).optional(),
  maxDigits: z.number().int().min(1).max(20).optional(),
  submitOnHash: z.boolean().optional(),
});

const speechSettings = z.object({
  uuid: z.array(z.string()).optional(),
  endOnSilence: z.number().min(0.4).max(10).optional(),
  language: language.optional(),
  context: z.array(z.string()).optional(),
  startTimeout: z.number().min(1).max(60).optional(),
  maxDuration: z.number().min(1).max(60).optional(),
  saveAudio: z.boolean().optional(),
  sensitivity: z.number().min(0).max(100).optional(),
});

/** `input`: `type` is the current form; the schema's top-level `timeOut`/`maxDigits`/`submitOnHash` the older. */
const input = z.object({
  action: z.literal('input'),
  type: z
    .array(z.enum(['dtmf', 'speech']))
    .min(1)
    .optional(),
  dtmf: dtmfSettings.optional(),
  speech: speechSettings.optional(),
  timeOut: z.number().min(0).max(10).optional(),
  maxDigits: z.number().int().min(0).max(20).optional(),
  submitOnHash: z.boolean().optional(),
  eventUrl: eventUrl.optional(),
  eventMethod: eventMethod.optional(),
  mode: z.enum(['synchronous', 'asynchronous']).optional(),
});

const record = z.object({
  action: z.literal('record'),
  format: z.enum(['mp3', 'wav', 'ogg']).optional(),
  split: z.literal('conversation').optional(),
  channels: z.number().int().min(1).max(32).optional(),
  endOnSilence: z.number().int().min(3).max(10).optional(),
  endOnKey: z
    .string()
    .regex(/^[0-9#*]$/, 'Must be one of 0-9, # or *')
    .optional(),
  timeOut: z.number().int().min(3).max(7200).optional(),
  beepStart: z.boolean().optional(),
  eventUrl: eventUrl.optional(),
  eventMethod: eventMethod.optional(),
});

const connect = z.object({
  action: z.literal('connect'),
  endpoint: z.array(connectEndpoint).min(1, 'Must hold one endpoint').max(1, 'Must hold one endpoint'),
  from: z
    .string()
    .regex(/^\d{7,15}$/, 'Must be a number of 7 to 15 digits')
    .optional(),
  randomFromNumber: z.boolean().optional(),
  eventType: z.literal('synchronous').optional(),
  timeout: z.number().min(0).max(120).optional(),
  limit: z.number().min(0).max(7200).optional(),
  machineDetection: z.enum(['continue', 'hangup']).optional(),
  eventUrl: eventUrl.optional(),
  eventMethod: eventMethod.optional(),
  ringbackTone: httpUrl.optional(),
});

const conversation = z.object({
  action: z.literal('conversation'),
  name: z.string().min(1).max(100),
  // The schema has one URL; the SDKs send an array.
  musicOnHoldUrl: z.union([httpUrl, z.array(httpUrl).min(1)]).optional(),
  startOnEnter: z.boolean().optional(),
  endOnExit: z.boolean().optional(),
  record: z.boolean().optional(),
  canSpeak: z.array(z.string()).optional(),
  canHear: z.array(z.string()).optional(),
  mute: z.boolean().optional(),
  eventUrl: eventUrl.optional(),
  eventMethod: eventMethod.optional(),
});

const notify = z.object({
  action: z.literal('notify'),
  payload: z.record(z.string(), z.unknown()),
  eventUrl: eventUrl,
  eventMethod: eventMethod.optional(),
});

const wait = z.object({
  action: z.literal('wait'),
  timeout: z.number().min(0.1).max(7200).optional(),
});

export const NCCO_ACTIONS = [
  'connect',
  'conversation',
  'input',
  'notify',
  'record',
  'stream',
  'talk',
  'wait',
] as const;

const action = z.discriminatedUnion(
  'action',
  [talk, stream, input, record, connect, conversation, notify, wait],
  {
    error: `action must be one of ${NCCO_ACTIONS.join(', ')}`,
  },
);

/** An NCCO: one to a hundred actions, run in order. */
export const nccoSchema = z.array(action).min(1, 'An NCCO needs at least one action').max(100);

export type NccoAction = z.infer<typeof action>;
export type TalkAction = z.infer<typeof talk>;
export type StreamAction = z.infer<typeof stream>;
export type InputAction = z.infer<typeof input>;
export type RecordAction = z.infer<typeof record>;
export type ConnectAction = z.infer<typeof connect>;
export type ConversationAction = z.infer<typeof conversation>;
export type NotifyAction = z.infer<typeof notify>;
export type WaitAction = z.infer<typeof wait>;

export type NccoParse =
  | { ok: true; actions: NccoAction[] }
  | {
      ok: false;
      reason: string;
      invalidParameters: InvalidParameter[];
      /** The URL could not be reached or answered an HTTP error (what `fallback_answer_url` covers). */
      unreachable?: boolean;
    };

/** The vendor's words for an NCCO it cannot run (its error event's `reason`). */
export const NCCO_SYNTAX_ERROR = 'Syntax error in NCCO. Invalid value type or action.';

/**
 * Validates anything that claims to be an NCCO: parsed JSON from an answer URL, a create body's
 * `ncco`, a transfer's. Never throws, whatever the shape.
 *
 * @example
 * parseNcco([{ action: 'talk', text: 'Hello' }]) // { ok: true, actions: [...] }
 * parseNcco({ action: 'talk' }) // { ok: false, reason: 'Syntax error in NCCO. ...', invalidParameters: [...] }
 */
export function parseNcco(value: unknown, field = 'ncco'): NccoParse {
  const result = nccoSchema.safeParse(value);
  if (result.success) return { ok: true, actions: result.data };
  const params = invalidParameters(result.error).map((p) => ({
    name: p.name === 'body' ? field : `${field}.${p.name}`,
    reason: p.reason,
  }));
  const first = params[0];
  return {
    ok: false,
    reason: first ? `${NCCO_SYNTAX_ERROR} ${first.name}: ${first.reason}` : NCCO_SYNTAX_ERROR,
    invalidParameters: params,
  };
}

/**
 * Parses the text an answer URL returned into an NCCO.
 *
 * @example
 * parseNccoText('[{"action":"talk","text":"Hi"}]') // { ok: true, actions: [...] }
 * parseNccoText('<xml/>') // { ok: false, reason: 'Syntax error in NCCO. ... not JSON', ... }
 */
export function parseNccoText(text: string): NccoParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: `${NCCO_SYNTAX_ERROR} The answer is not JSON.`,
      invalidParameters: [{ name: 'ncco', reason: 'Must be JSON' }],
    };
  }
  return parseNcco(value);
}
