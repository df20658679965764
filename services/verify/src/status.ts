import {
  ApiError,
  AuthError,
  type ErrorKind,
  type ErrorStyle,
  formatOf,
  type Params,
  param,
} from '@comms/core';
import type { Context } from 'hono';
import { answer, type Endpoint } from './render';

/** Verify's body `status` codes (spec 7.5 and the reference) that this implementation answers. */
export const VERIFY_STATUS = {
  success: 0,
  throttled: 1,
  missing: 2,
  invalid: 3,
  credentials: 4,
  internal: 5,
  notFound: 6,
  blacklisted: 7,
  quota: 9,
  concurrent: 10,
  unsupportedNetwork: 15,
  mismatch: 16,
  tooManyWrong: 17,
  cannotControl: 19,
  pinCodeNotAllowed: 20,
  demoDestination: 29,
  /** Search only: no request with that id (or not this account's). */
  noResponse: 101,
} as const;

export type VerifyStatus = (typeof VERIFY_STATUS)[keyof typeof VERIFY_STATUS];

/** The reference's wording of the statuses whose text never varies. */
export const STATUS_TEXT = {
  throttled: 'Throttled',
  internal: 'Internal Error',
  blacklisted: 'The number you are trying to verify is blacklisted for verification.',
  quota: 'Partner quota exceeded',
  concurrent: 'Concurrent verifications to the same number are not allowed',
  unsupportedNetwork: 'The destination number is not in a supported network',
  mismatch: 'The code inserted does not match the expected value',
  tooManyWrong: 'The wrong code was provided too many times. Request terminated',
  pinCodeNotAllowed: 'This account does not support the parameter: pin_code.',
  demoDestination:
    'Your Vonage account is still in demo mode. While in demo mode you must add target numbers to the approved list for your account. Add funds to your account to remove this limitation.',
  noResponse: 'No response found',
} as const;

/** The platform's kind of each refusal, for logs and for anything that reads `kind`. */
const KIND_OF: Partial<Record<VerifyStatus, ErrorKind>> = {
  1: 'throttled',
  4: 'unauthorized',
  5: 'internal',
  6: 'not-found',
  9: 'insufficient-funds',
  10: 'conflict',
  20: 'forbidden',
  29: 'forbidden',
  101: 'not-found',
};

/**
 * A refusal with an explicit verify status, answered as HTTP 200 with the status in the body. A
 * concurrent request (status 10) names the request already in progress.
 *
 * @example
 * throw new VerifyRefusal(VERIFY_STATUS.blacklisted, STATUS_TEXT.blacklisted);
 */
export class VerifyRefusal extends ApiError {
  readonly requestId: string | undefined;

  constructor(status: VerifyStatus, text: string, requestId?: string) {
    super({ kind: KIND_OF[status] ?? 'validation', statusCode: status, detail: text });
    this.requestId = requestId;
  }
}

/** Status 2 with the reference's wording. */
export function missingParameter(name: string): VerifyRefusal {
  return new VerifyRefusal(
    VERIFY_STATUS.missing,
    `Your request is incomplete and missing the mandatory parameter \`${name}\``,
  );
}

/** Status 3 with the reference's wording. */
export function invalidParameter(name: string): VerifyRefusal {
  return new VerifyRefusal(VERIFY_STATUS.invalid, `Invalid value for param: ${name}`);
}

/** Status 6 for a check of a request that is unknown, another account's, or over. */
export function requestNotFound(requestId: string): VerifyRefusal {
  return new VerifyRefusal(
    VERIFY_STATUS.notFound,
    `The Vonage platform was unable to process this message for the following reason: Request '${requestId}' was not found or it has been verified already.`,
  );
}

/** Status 6 for a control command on a request that is unknown, another account's, or over. */
export function controlNotFound(requestId: string): VerifyRefusal {
  return new VerifyRefusal(
    VERIFY_STATUS.notFound,
    `The requestId '${requestId}' does not exist or its no longer active.`,
  );
}

/** Which credential is missing, by what the request did bring. */
function missingCredential(c: Context): string {
  const params = c.get('params') as Params | undefined;
  return params && param(params, 'api_key') !== undefined ? 'api_secret' : 'api_key';
}

/** The status and text of a failure that is not a VerifyRefusal. */
function statusOf(err: ApiError, c: Context, endpoint: Endpoint): { status: VerifyStatus; text: string } {
  if (err instanceof AuthError) {
    if (err.reason === 'missing') {
      return { status: VERIFY_STATUS.missing, text: missingParameter(missingCredential(c)).detail };
    }
    // The reference words it one way for a new request and another for everything else.
    const text = endpoint === 'request' ? 'Invalid credentials were provided' : 'Bad credentials';
    return { status: VERIFY_STATUS.credentials, text };
  }
  if (err.kind === 'internal') return { status: VERIFY_STATUS.internal, text: STATUS_TEXT.internal };
  // Anything else that went wrong reading the request (a body that is not JSON, say).
  return { status: VERIFY_STATUS.invalid, text: err.detail };
}

/**
 * Failures of one endpoint in the family's HTTP-200 style: the endpoint's own error body (spec 2.8
 * and the reference) with `status` and `error_text`, in JSON or XML.
 */
export function verifyStyle(endpoint: Endpoint): ErrorStyle {
  return (err, c) => {
    if (!c.get('format')) c.set('format', formatOf(c));
    // An unknown `:format` is no endpoint at all.
    if (err.kind === 'not-found' && err.statusCode === undefined) {
      return c.json({ type: err.type, title: err.title, detail: err.detail }, 404);
    }
    const { status, text } =
      err instanceof VerifyRefusal
        ? { status: err.statusCode as VerifyStatus, text: err.detail }
        : statusOf(err, c, endpoint);
    const requestId = err instanceof VerifyRefusal ? err.requestId : undefined;
    return answer(c, endpoint, errorBody(c, endpoint, status, text, requestId));
  };
}

/** The error body of each endpoint: control answers no `request_id`, the others echo one. */
function errorBody(
  c: Context,
  endpoint: Endpoint,
  status: VerifyStatus,
  text: string,
  requestId: string | undefined,
): Record<string, string> {
  const body = { status: String(status), error_text: text };
  if (endpoint === 'control') return body;
  // A new request has no id yet (the reference's "may be empty"), except the one a concurrent
  // request is refused for; a check or search echoes the id it was asked about.
  const params = c.get('params') as Params | undefined;
  const echoed = endpoint === 'request' ? '' : (params && param(params, 'request_id')) || '';
  return { request_id: requestId ?? echoed, ...body };
}
