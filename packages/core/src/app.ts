import { zValidator } from '@hono/zod-validator';
import type { Context, Env } from 'hono';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ValidationTargets } from 'hono/types';
import type { z } from 'zod';
import type { AuthContext } from './auth';
import { ApiError, type ErrorStyle, type InvalidParameter, problemStyle, toApiError } from './errors';
import { type Format, negotiateFormat } from './format';
import type { Params } from './params';

/** Variables every family app keeps on the context. */
export interface CoreVariables {
  requestId: string;
  params: Params | undefined;
  format: Format | undefined;
  auth: AuthContext | undefined;
  errorStyle: ErrorStyle | undefined;
}

export type FamilyEnv<B extends object = object> = { Bindings: B; Variables: CoreVariables };

export interface CreateAppOptions {
  /** How failures are rendered where a route group sets no style of its own. */
  style?: ErrorStyle;
}

/**
 * A family's Hono app: a request id on every response, and failures (thrown ApiErrors, bad
 * input, unknown paths, unexpected exceptions) rendered in the family's style, never as a stack.
 *
 * @example
 * const app = createApp<Env>({ style: problemStyle() });
 */
export function createApp<B extends object>(options: CreateAppOptions = {}) {
  const fallback = options.style ?? problemStyle();
  const app = new Hono<FamilyEnv<B>>();
  app.use(async (c, next) => {
    const requestId = c.req.header('x-request-id') || crypto.randomUUID();
    c.set('requestId', requestId);
    await next();
    // A response passed through from another service carries that service's id (and is immutable).
    if (!c.res.headers.has('x-request-id')) c.header('x-request-id', requestId);
  });
  app.onError(async (err, c) => {
    const apiError = toApiError(err);
    if (apiError.kind === 'internal') console.error(`[${c.get('requestId')}]`, err);
    const res = await (c.get('errorStyle') ?? fallback)(apiError, c);
    res.headers.set('x-request-id', c.get('requestId') ?? '');
    return res;
  });
  app.notFound((c) => {
    const err = new ApiError({
      kind: 'not-found',
      detail: `No route for ${c.req.method} ${new URL(c.req.url).pathname}`,
    });
    return (c.get('errorStyle') ?? fallback)(err, c);
  });
  return app;
}

/** JSON or XML by the `Accept` header, for the legacy endpoints without a `:format` segment. */
export const acceptFormat = createMiddleware(async (c, next) => {
  c.set('format', negotiateFormat(c));
  await next();
});

/** Sets the error style of the routes after it. */
export function errorStyle(style: ErrorStyle) {
  return createMiddleware(async (c, next) => {
    c.set('errorStyle', style);
    await next();
  });
}

/** Maps zod issues to the `name` + `reason` list of every family. */
export function invalidParameters(error: z.ZodError): InvalidParameter[] {
  return error.issues.map((issue) => ({
    name: issue.path.length ? issue.path.join('.') : 'body',
    reason: issue.message,
  }));
}

/**
 * The one validation hook: a failed parse becomes an ApiError of kind `validation`, which the
 * family's style renders (problem body, `error-code`, or body `status`).
 *
 * @example
 * app.post('/accounts/:api_key/secrets', validate('json', z.object({ secret: z.string() })), handler)
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  options: { type?: string; detail?: string } = {},
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      throw new ApiError({
        kind: 'validation',
        ...(options.type ? { type: options.type } : {}),
        detail: options.detail ?? 'The request failed due to validation errors',
        invalidParameters: invalidParameters(result.error as unknown as z.ZodError),
      });
    }
  });
}

/** Parses already-read parameters (legacy endpoints) with the same error as `validate`. */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ApiError({
      kind: 'validation',
      detail: 'The request failed due to validation errors',
      invalidParameters: invalidParameters(result.error),
    });
  }
  return result.data;
}

export type AppContext<B extends object = object> = Context<FamilyEnv<B>>;
export type { Env };
