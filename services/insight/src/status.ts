import {
  ApiError,
  AuthError,
  type ErrorKind,
  type ErrorStyle,
  type JsonObject,
  readParams,
  respond,
  uuid,
} from '@comms/core';
import type { Context } from 'hono';

/** Number Insight's body `status` codes (spec 7.3). */
export const STATUS = {
  success: 0,
  throttled: 1,
  invalid: 3,
  invalidCredentials: 4,
  internal: 5,
  insufficientCredit: 9,
  facilityNotAllowed: 19,
  /** The live lookup answered nothing for the number's current state (magic suffix 105). */
  liveLookupUnknown: 43,
  /** The live lookup only guessed that the number does not exist (magic suffix 107). */
  liveLookupInferred: 44,
  /** The live lookup failed (magic suffix 108). */
  liveLookupFailed: 45,
  unparsable: 999,
} as const;

export type InsightStatus = (typeof STATUS)[keyof typeof STATUS];

const LIVE_LOOKUP_NOT_RETURNED = 'Live mobile lookup not returned. Not all return parameters are available.';

/** The vendor's wording of each status, used where nothing more precise is known. */
export const STATUS_TEXT: Readonly<Record<InsightStatus, string>> = {
  0: 'Success',
  1: 'Busy: more requests in the last second than are permitted; please retry',
  3: 'Invalid: mandatory parameters missing or invalid',
  4: 'Invalid credentials',
  5: 'Internal error',
  9: 'Partner quota exceeded: insufficient credit',
  19: 'Facility not allowed',
  43: LIVE_LOOKUP_NOT_RETURNED,
  44: LIVE_LOOKUP_NOT_RETURNED,
  45: LIVE_LOOKUP_NOT_RETURNED,
  999: 'Request unparseable',
};

/**
 * The body field that carries the status text: `status_message` for success and busy, `error_text`
 * for everything else (spec 7.3).
 *
 * @example
 * statusTextField(0) // 'status_message'
 * statusTextField(3) // 'error_text'
 */
export function statusTextField(status: InsightStatus): 'status_message' | 'error_text' {
  return status === STATUS.success || status === STATUS.throttled ? 'status_message' : 'error_text';
}

/**
 * The endpoints of the family: the three lookup levels, and the asynchronous advanced lookup, whose
 * answer is an acknowledgement of its own shape.
 */
export type Endpoint = 'basic' | 'standard' | 'advanced' | 'async';

/**
 * XML root element of each endpoint, as the reference names them (`format` for basic is the
 * reference's spelling, kept so that a client written against it finds its root).
 */
export const XML_ROOT: Readonly<Record<Endpoint, string>> = {
  basic: 'format',
  standard: 'lookup',
  advanced: 'lookup',
  async: 'lookup',
};

/** The platform's kind of each status, for logs and for anything that reads `kind`. */
const KIND_OF: Partial<Record<InsightStatus, ErrorKind>> = {
  1: 'throttled',
  4: 'unauthorized',
  5: 'internal',
  9: 'insufficient-funds',
  19: 'forbidden',
};

/**
 * A failure with an explicit Number Insight status; the route throws it and `insightStyle` renders it.
 *
 * @example
 * throw insightError(STATUS.unparsable, `Request unparseable: '${number}' is not a phone number`);
 */
export function insightError(status: InsightStatus, detail: string): ApiError {
  return new ApiError({ kind: KIND_OF[status] ?? 'validation', statusCode: status, detail });
}

/** The status of a failure that carries none of its own, by what kind of failure it is. */
export function statusOfError(err: ApiError): InsightStatus {
  if (err.statusCode !== undefined) return err.statusCode as InsightStatus;
  if (err instanceof AuthError) {
    // No credentials at all is a missing mandatory parameter; anything presented and refused is 4.
    return err.reason === 'missing' ? STATUS.invalid : STATUS.invalidCredentials;
  }
  switch (err.kind) {
    case 'unauthorized':
      return STATUS.invalidCredentials;
    case 'throttled':
      return STATUS.throttled;
    case 'insufficient-funds':
      return STATUS.insufficientCredit;
    case 'forbidden':
      return STATUS.facilityNotAllowed;
    case 'internal':
      return STATUS.internal;
    default:
      return STATUS.invalid;
  }
}

function errorTextOf(err: ApiError, status: InsightStatus): string {
  if (err.invalidParameters?.length) {
    return `Invalid parameters: ${err.invalidParameters.map((p) => `${p.name}: ${p.reason}`).join('; ')}`;
  }
  // An internal error's detail is kept out of the body; the log has it.
  return status === STATUS.internal ? STATUS_TEXT[status] : err.detail || STATUS_TEXT[status];
}

/** The `number` of the request, for the acknowledgement of a refused asynchronous lookup. */
async function requestedNumber(c: Context): Promise<string | undefined> {
  try {
    const value = (await readParams(c))['number'];
    return Array.isArray(value) ? value[0] : value;
  } catch {
    return undefined;
  }
}

/**
 * The family's error style: HTTP 200 with a non-zero body `status` and its text, in the endpoint's
 * JSON or XML shape. The lookups answer `{status, error_text, request_id}` (XML: `request_id` and
 * `error code="…"`); the asynchronous endpoint answers its acknowledgement shape with `error_text`.
 *
 * @example
 * lookup.get('/ni/basic/:format', errorStyle(insightStyle('basic')), ...)
 */
export function insightStyle(endpoint: Endpoint): ErrorStyle {
  return async (err, c) => {
    const status = statusOfError(err);
    const text = errorTextOf(err, status);
    const requestId = uuid();
    if (endpoint === 'async') {
      const number = await requestedNumber(c);
      const body: JsonObject = {
        request_id: requestId,
        ...(number !== undefined ? { number } : {}),
        status,
        error_text: text,
      };
      const { request_id: _id, ...rest } = body;
      return respond(c, body, { root: XML_ROOT.async, xml: { requestId, ...rest } });
    }
    return respond(
      c,
      { status, [statusTextField(status)]: text, request_id: requestId },
      {
        root: XML_ROOT[endpoint],
        xml: { request_id: requestId, error: { '@code': String(status), '#text': text } },
      },
    );
  };
}
