import { ApiError, type InvalidParameter } from '@comms/core';

/** Problem `type` URIs of the reports reference. */
export const REPORT_ERRORS = {
  invalidParameters: 'https://developer.nexmo.com/api-errors/reports#invalid-parameters',
  invalidFilter: 'https://developer.nexmo.com/api-errors/reports#invalid-filter',
  invalidRequestParameters: 'https://developer.nexmo.com/api-errors/reports#invalid-request-parameters',
  invalidAbort: 'https://developer.nexmo.com/api-errors/reports#invalid-abort-operation',
  invalidJson: 'https://developer.nexmo.com/api-errors#invalid-json',
  forbidden: 'https://developer.nexmo.com/api-errors#forbidden',
  notFound: 'https://developer.nexmo.com/api-errors#not-found',
  throttled: 'https://developer.nexmo.com/api-errors#throttled',
} as const;

/** 422 with every invalid parameter named (reference `get-records`, "Missing parameter"). */
export function unprocessable(invalid: InvalidParameter[]): ApiError {
  return new ApiError({
    kind: 'validation',
    status: 422,
    type: REPORT_ERRORS.invalidParameters,
    title: 'Unprocessable entity',
    detail: `Invalid parameters: ${invalid.map((p) => p.name).join(', ')}`,
    invalidParameters: invalid,
  });
}

/** 422 for filters that may not be combined with `id` (reference, "Invalid filter"). */
export function invalidFilter(names: string[]): ApiError {
  return new ApiError({
    kind: 'validation',
    status: 422,
    type: REPORT_ERRORS.invalidFilter,
    title: 'Invalid filter',
    detail: `When using id, the following parameters are not supported: [${names.join(', ')}]`,
    invalidParameters: names.map((name) => ({ name, reason: 'Not supported together with id' })),
  });
}

/** 403: the account asked about is neither the caller nor one of its secondary accounts. */
export function notAuthorized(): ApiError {
  return new ApiError({
    kind: 'forbidden',
    type: REPORT_ERRORS.forbidden,
    title: 'Forbidden',
    detail: 'User not authorized to query the requested data',
  });
}

/** 404 for a report (or its file) that does not exist or is not the caller's. */
export function reportNotFound(id: string): ApiError {
  return new ApiError({
    kind: 'not-found',
    type: REPORT_ERRORS.notFound,
    title: 'Invalid report ID',
    detail: `Report ${id} does not exist, or you do not have access.`,
  });
}
