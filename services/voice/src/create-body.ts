import { ApiError, type InvalidParameter, invalidParameters } from '@comms/core';
import { z } from 'zod';
import { callEndpoint, fromEndpoint, urlList } from './endpoints';
import { type NccoAction, parseNcco } from './ncco';

/** Spec 8: `length_timer` 1-7200 s (default 7200), `ringing_timer` 1-120 s (default 60). */
export const LENGTH_TIMER_DEFAULT = 7200;
export const RINGING_TIMER_DEFAULT = 60;

const method = (fallback: 'GET' | 'POST') => z.enum(['GET', 'POST']).default(fallback);

/** The create body's fields apart from `ncco`, which `parseNcco` checks with the NCCO rules. */
const createBody = z.object({
  to: z
    .array(callEndpoint, { error: 'Must be an array of endpoints' })
    .min(1, 'Must hold one endpoint')
    .max(1, 'Only one endpoint may be called'),
  from: fromEndpoint.optional(),
  random_from_number: z.boolean().optional(),
  answer_url: urlList.optional(),
  answer_method: z.enum(['GET', 'POST']).optional(),
  event_url: urlList.optional(),
  event_method: method('POST'),
  machine_detection: z.enum(['continue', 'hangup']).optional(),
  advanced_machine_detection: z
    .object({
      behavior: z.enum(['continue', 'hangup']),
      mode: z.enum(['default', 'detect', 'detect_beep']).optional(),
      beep_timeout: z.number().int().min(45).max(120).optional(),
    })
    .optional(),
  length_timer: z.number().int().min(1).max(7200).default(LENGTH_TIMER_DEFAULT),
  ringing_timer: z.number().int().min(1).max(120).default(RINGING_TIMER_DEFAULT),
});

/** A create request that passed every field rule. */
export interface CreateCall {
  to: z.infer<typeof callEndpoint>;
  /** Null when `random_from_number` asks for one of the application's numbers. */
  from: z.infer<typeof fromEndpoint> | null;
  /** The inline NCCO, or null when `answer_url` provides it. */
  ncco: NccoAction[] | null;
  answer: { url: string; method: 'GET' | 'POST' } | null;
  /** Null when the body has none (the application's would apply). */
  event: { url: string; method: 'GET' | 'POST' } | null;
  machineDetection: 'continue' | 'hangup' | null;
  lengthTimer: number;
  ringingTimer: number;
}

/**
 * Reads a create body (spec 4.7) or throws a 400 problem listing every invalid field.
 *
 * @example
 * readCreateBody({ to: [{ type: 'phone', number: '447700900000' }], from: { type: 'phone', number: '447700900001' },
 *   ncco: [{ action: 'talk', text: 'Hi' }], event_url: ['https://example.com/event'] })
 */
export function readCreateBody(body: unknown): CreateCall {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid([{ name: 'body', reason: 'Must be a JSON object' }]);
  }
  const raw = body as Record<string, unknown>;
  const problems: InvalidParameter[] = [];
  const parsed = createBody.safeParse(raw);
  if (!parsed.success) problems.push(...invalidParameters(parsed.error));

  let ncco: NccoAction[] | null = null;
  const hasNcco = raw['ncco'] !== undefined;
  const hasAnswerUrl = raw['answer_url'] !== undefined;
  if (hasNcco && hasAnswerUrl) {
    problems.push({ name: 'ncco', reason: 'Give either ncco or answer_url, not both' });
  } else if (!hasNcco && !hasAnswerUrl) {
    problems.push({ name: 'ncco', reason: 'Either ncco or answer_url is required' });
  } else if (hasNcco) {
    const result = parseNcco(raw['ncco']);
    if (result.ok) ncco = result.actions;
    else problems.push(...result.invalidParameters);
  }
  if (hasNcco && raw['answer_method'] !== undefined) {
    problems.push({ name: 'answer_method', reason: 'Only allowed with answer_url' });
  }
  if (raw['from'] !== undefined && raw['random_from_number'] === true) {
    problems.push({ name: 'random_from_number', reason: 'Cannot be combined with from' });
  } else if (raw['from'] === undefined && raw['random_from_number'] !== true) {
    problems.push({ name: 'from', reason: 'Required unless random_from_number is true' });
  }
  if (problems.length > 0 || !parsed.success) throw invalid(problems);

  const fields = parsed.data;
  const answerUrl = fields.answer_url?.[0];
  const eventUrl = fields.event_url?.[0];
  return {
    to: fields.to[0]!,
    from: fields.random_from_number === true ? null : (fields.from ?? null),
    ncco,
    answer: answerUrl ? { url: answerUrl, method: fields.answer_method ?? 'GET' } : null,
    event: eventUrl ? { url: eventUrl, method: fields.event_method } : null,
    machineDetection: fields.machine_detection ?? fields.advanced_machine_detection?.behavior ?? null,
    lengthTimer: fields.length_timer,
    ringingTimer: fields.ringing_timer,
  };
}

/** The 400 problem body of an invalid create or update body. */
export function invalid(params: InvalidParameter[]): ApiError {
  return new ApiError({
    kind: 'validation',
    detail: 'The request failed due to validation errors',
    invalidParameters: params,
  });
}
