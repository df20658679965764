import { type ApiError, AuthError, type ErrorStyle, formatOf, respond } from '@comms/core';
import type { Context } from 'hono';

/** SMS API statuses (spec 7.4 and the reference's 11-33) that this implementation can answer. */
export const SMS_STATUS = {
  throttled: 1,
  missing: 2,
  invalid: 3,
  credentials: 4,
  internal: 5,
  invalidMessage: 6,
  barred: 7,
  quota: 9,
  tooLong: 12,
  signature: 14,
  sender: 15,
  callback: 23,
  demoDestination: 29,
  signatureAndSecret: 32,
  deactivated: 33,
} as const;

export type SmsStatus = (typeof SMS_STATUS)[keyof typeof SMS_STATUS];

/** A refusal of one submission, answered as HTTP 200 with its status in the body. */
export class SmsRefusal extends Error {
  constructor(
    readonly status: SmsStatus,
    readonly text: string,
  ) {
    super(text);
  }
}

/** The error body of spec 2.7: one message with `status` and `error-text`. */
export function refusalBody(c: Context, status: number, text: string): Response {
  const message = { status: String(status), 'error-text': text };
  return respond(
    c,
    { 'message-count': '1', messages: [message] },
    { root: 'mt-submission-response', xml: { messages: { '@count': 1, message } } },
  );
}

/** Authentication failures and other errors in the SMS family's HTTP-200 style. */
export const smsStyle: ErrorStyle = (err: ApiError, c) => {
  if (!c.get('format')) c.set('format', formatOf(c));
  if (err instanceof AuthError) {
    switch (err.reason) {
      case 'missing':
        return refusalBody(c, SMS_STATUS.missing, 'Missing api_key or api_secret');
      case 'invalid-signature':
        return refusalBody(c, SMS_STATUS.signature, 'Invalid Signature');
      case 'signature-and-secret':
        return refusalBody(c, SMS_STATUS.signatureAndSecret, 'Signature and API secret disallowed');
      default:
        return refusalBody(c, SMS_STATUS.credentials, 'Bad Credentials');
    }
  }
  if (err.kind === 'not-found') return c.json({ type: err.type, title: err.title, detail: err.detail }, 404);
  if (err.kind === 'internal') return refusalBody(c, SMS_STATUS.internal, 'Internal Error');
  return refusalBody(c, SMS_STATUS.invalid, err.detail);
};
