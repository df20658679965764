import type { Context } from 'hono';
import { ApiError } from './errors';

/** Request parameters of the legacy endpoints: query, form body and JSON body, merged. */
export type Params = Record<string, string | string[]>;

const JSON_TYPES =
  /^(application\/(json|jsonrequest|x-javascript)|text\/(json|javascript|x-javascript|x-json))\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

export interface ReadParamsOptions {
  /** Accept a JSON body (some endpoints, account settings for one, take form bodies only). */
  json?: boolean;
}

/**
 * Reads the parameters of a legacy endpoint once per request: the query string, then a form or
 * JSON body on top of it. Repeated keys become arrays; JSON scalars become strings, as a form
 * would have sent them.
 *
 * @example
 * const params = await readParams(c); // { api_key: 'abcd1234', to: '447700900000', ... }
 */
export async function readParams(c: Context, options: ReadParamsOptions = {}): Promise<Params> {
  const cached = c.get('params') as Params | undefined;
  if (cached) return cached;
  const params: Params = {};
  const add = (key: string, value: string) => {
    const existing = params[key];
    if (existing === undefined) params[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else params[key] = [existing, value];
  };
  const url = new URL(c.req.url);
  for (const [k, v] of url.searchParams) add(k, v);

  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const type = c.req.header('content-type') ?? '';
    if (FORM_TYPE.test(type)) {
      const text = await bodyText(c);
      for (const [k, v] of new URLSearchParams(text)) add(k, v);
    } else if (JSON_TYPES.test(type) && options.json !== false) {
      const text = await bodyText(c);
      if (text.trim() !== '') {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new ApiError({ kind: 'validation', detail: 'The request body is not valid JSON' });
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw new ApiError({ kind: 'validation', detail: 'The request body must be a JSON object' });
        }
        for (const [k, v] of Object.entries(body)) {
          if (v === null || v === undefined) continue;
          if (Array.isArray(v)) for (const item of v) add(k, scalar(item));
          else add(k, scalar(v));
        }
      }
    }
  }
  c.set('params', params);
  return params;
}

/** The body as UTF-8 text, read as bytes (workerd warns when `.text()` meets a form body). */
async function bodyText(c: Context): Promise<string> {
  return new TextDecoder().decode(await c.req.arrayBuffer());
}

function scalar(v: unknown): string {
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The first value of a parameter, or undefined. */
export function param(params: Params, key: string): string | undefined {
  const v = params[key];
  return Array.isArray(v) ? v[0] : v;
}
