import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One invalid field of a request, as every family reports it (`name` + `reason`). */
export interface InvalidParameter {
  name: string;
  reason: string;
}

/** The kinds of failure the platform knows; each style renders them in its family's words. */
export type ErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'validation'
  | 'missing-parameter'
  | 'conflict'
  | 'throttled'
  | 'insufficient-funds'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'internal';

const STATUS_OF: Record<ErrorKind, ContentfulStatusCode> = {
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  validation: 400,
  'missing-parameter': 400,
  conflict: 409,
  throttled: 429,
  'insufficient-funds': 402,
  'method-not-allowed': 405,
  'unsupported-media-type': 415,
  internal: 500,
};

const TITLE_OF: Record<ErrorKind, string> = {
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  'not-found': 'Not Found',
  validation: 'Bad Request',
  'missing-parameter': 'Bad Request',
  conflict: 'Conflict',
  throttled: 'Too Many Requests',
  'insufficient-funds': 'Payment Required',
  'method-not-allowed': 'Method Not Allowed',
  'unsupported-media-type': 'Unsupported Media Type',
  internal: 'Internal Server Error',
};

export interface ApiErrorInit {
  kind: ErrorKind;
  /** HTTP status; defaults to the kind's status (420 is the legacy numbers API's own). */
  status?: ContentfulStatusCode | 420;
  /** Problem `type` URI; defaults to the vendor's error page for the kind. */
  type?: string;
  title?: string;
  detail?: string;
  invalidParameters?: InvalidParameter[];
  /** `error-code-label` of the legacy style. */
  label?: string;
  /** Body `status` of the HTTP-200 style (SMS, verify, number insight). */
  statusCode?: number;
}

/**
 * The one error class of the platform. Routes throw it; the family's error style renders it.
 *
 * @example
 * throw new ApiError({ kind: 'not-found', detail: `ID '${id}' could not be found`, type: ERROR_TYPES.invalidId });
 */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly status: ContentfulStatusCode;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly invalidParameters: InvalidParameter[] | undefined;
  readonly label: string | undefined;
  readonly statusCode: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.detail ?? TITLE_OF[init.kind]);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = (init.status ?? STATUS_OF[init.kind]) as ContentfulStatusCode;
    this.type = init.type ?? `${ERROR_DOCS}#${init.kind}`;
    this.title = init.title ?? TITLE_OF[init.kind];
    this.detail = init.detail ?? this.title;
    this.invalidParameters = init.invalidParameters;
    this.label = init.label;
    this.statusCode = init.statusCode;
  }
}

export const ERROR_DOCS = 'https://developer.nexmo.com/api-errors';

/** Problem `type` URIs the vendor uses, kept so that clients matching on them keep working. */
export const ERROR_TYPES = {
  unauthorized: 'https://developer.nexmo.com/api-errors#unauthorized',
  invalidApiKey: 'https://developer.nexmo.com/api-errors#invalid-api-key',
  invalidId: 'https://developer.nexmo.com/api-errors#invalid-id',
  secretValidation: 'https://developer.nexmo.com/api-errors/account/secret-management#validation',
  deleteLastSecret: 'https://developer.nexmo.com/api-errors/account/secret-management#delete-last-secret',
  notFound: 'https://developer.nexmo.com/api-errors#not-found',
  validation: 'https://developer.nexmo.com/api-errors#validation',
  throttled: 'https://developer.nexmo.com/api-errors#throttled',
  internal: 'https://developer.nexmo.com/api-errors#internal',
} as const;

/** Turns whatever was thrown into an ApiError, hiding anything internal. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const status = (err as { status?: unknown })?.status;
  // Hono's own HTTPException (malformed JSON body, for instance): keep its 4xx meaning.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const kind: ErrorKind = status === 401 ? 'unauthorized' : status === 404 ? 'not-found' : 'validation';
    return new ApiError({
      kind,
      status: status as ContentfulStatusCode,
      detail: 'The request could not be parsed',
    });
  }
  return new ApiError({ kind: 'internal', detail: 'An internal error occurred', type: ERROR_TYPES.internal });
}

/** Renders an ApiError as one family renders its failures. */
export type ErrorStyle = (err: ApiError, c: Context) => Response | Promise<Response>;

export function requestIdOf(c: Context): string {
  return (c.get('requestId') as string | undefined) ?? c.req.header('x-request-id') ?? crypto.randomUUID();
}

/** Style 1: the problem body of spec 7.1, with `invalid_parameters` (or the family's own list key). */
export function problemStyle(
  options: { listKey?: 'invalid_parameters' | 'invalid_params' } = {},
): ErrorStyle {
  const listKey = options.listKey ?? 'invalid_parameters';
  return (err, c) => {
    const body: Record<string, unknown> = {
      type: err.type,
      title: err.title,
      detail: err.detail,
      instance: requestIdOf(c),
    };
    if (err.invalidParameters?.length) body[listKey] = err.invalidParameters;
    return c.json(body, err.status);
  };
}
