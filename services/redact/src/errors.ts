import { ApiError, type ErrorStyle, type InvalidParameter, problemStyle, requestIdOf } from '@comms/core';

/** Problem `type` URIs of the redact reference. */
export const REDACT_ERRORS = {
  invalidProduct: 'https://developer.nexmo.com/api-errors/redact#invalid-product',
  prematureRedaction: 'https://developer.nexmo.com/api-errors/redact#premature-redaction',
  rateLimit: 'https://developer.nexmo.com/api-errors/redact#rate-limit',
  unprovisioned: 'https://developer.nexmo.com/api-errors#unprovisioned',
  invalidJson: 'https://developer.nexmo.com/api-errors#invalid-json',
  invalidId: 'https://developer.nexmo.com/api-errors#invalid-id',
} as const;

const problem = problemStyle();

/**
 * The redact family's errors: the problem bodies of its reference, except authentication, which the
 * reference answers as `{type: 'UNAUTHORIZED', error_title: 'Unauthorized'}`.
 */
export const redactStyle: ErrorStyle = (err, c) => {
  if (err.kind === 'unauthorized') {
    return c.json({ type: 'UNAUTHORIZED', error_title: 'Unauthorized', instance: requestIdOf(c) }, 401);
  }
  return problem(err, c);
};

/** 422 `invalid-json`: the body is not JSON, or not the object the endpoint takes. */
export function invalidJson(detail: string, invalid: InvalidParameter[] = []): ApiError {
  return new ApiError({
    kind: 'validation',
    status: 422,
    type: REDACT_ERRORS.invalidJson,
    title: 'Invalid JSON',
    detail,
    ...(invalid.length ? { invalidParameters: invalid } : {}),
  });
}

export function invalidProduct(product: string): ApiError {
  return new ApiError({
    kind: 'validation',
    status: 422,
    type: REDACT_ERRORS.invalidProduct,
    title: 'Invalid Product',
    detail: `No product corresponding to supplied string ${product}!`,
    invalidParameters: [{ name: 'product', reason: 'Not a redactable product' }],
  });
}

export function unprovisioned(apiKey: string, label: string): ApiError {
  return new ApiError({
    kind: 'forbidden',
    type: REDACT_ERRORS.unprovisioned,
    title: 'Authorisation error',
    detail: `User=${apiKey} is not provisioned to redact product=${label}`,
  });
}

export function prematureRedaction(id: string, waitSeconds: number): ApiError {
  const wait = waitSeconds % 60 === 0 ? `${waitSeconds / 60} minutes` : `${waitSeconds} seconds`;
  return new ApiError({
    kind: 'forbidden',
    type: REDACT_ERRORS.prematureRedaction,
    title: 'Premature Redaction',
    detail: `You must wait ${wait} before redacting ID '${id}'`,
  });
}

export function invalidId(id: string, smsType?: 'inbound' | 'outbound'): ApiError {
  const kind = smsType ? ` (type=${smsType === 'inbound' ? 'MO' : 'MT'})` : '';
  return new ApiError({
    kind: 'not-found',
    type: REDACT_ERRORS.invalidId,
    title: 'Invalid ID',
    detail: `ID '${id}' could not be found${kind}`,
  });
}

export function rateLimited(): ApiError {
  return new ApiError({
    kind: 'throttled',
    type: REDACT_ERRORS.rateLimit,
    title: 'Rate Limit Hit',
    detail: 'Please wait, then retry your request',
  });
}
