import { XMLBuilder } from 'fast-xml-parser';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorStyle } from './errors';

export type Format = 'json' | 'xml';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
});

/**
 * Picks JSON or XML: a `:format` path segment wins, then the `Accept` header; JSON by default.
 * An unknown `:format` is refused so that `/sms/html` is not silently JSON.
 */
export function negotiateFormat(c: Context, pathFormat?: string): Format {
  if (pathFormat !== undefined) {
    const f = pathFormat.toLowerCase();
    if (f === 'json' || f === 'xml') return f;
    throw new ApiError({ kind: 'not-found', detail: `Unsupported format '${pathFormat}'` });
  }
  const accept = c.req.header('accept') ?? '';
  if (/\b(application|text)\/xml\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept)) return 'xml';
  return 'json';
}

/** The request's negotiated format, as set by `withFormat` (JSON when none was set). */
export function formatOf(c: Context): Format {
  return (c.get('format') as Format | undefined) ?? 'json';
}

/**
 * Serialises a body as an XML document with the given root element.
 * Arrays become repeated elements named by `itemNames[key]` (or the key itself).
 *
 * @example
 * toXml('accountBalance', { value: '10.00', autoReload: false })
 */
export function toXml(root: string, body: unknown): string {
  return XML_DECLARATION + builder.build({ [root]: body });
}

export interface RespondOptions {
  status?: ContentfulStatusCode;
  /** XML root element name. */
  root: string;
  /** Replaces the body for XML, where the vendor's XML shape differs from its JSON one. */
  xml?: unknown;
}

/** Answers in the negotiated format. */
export function respond(c: Context, body: unknown, options: RespondOptions): Response {
  const status = options.status ?? 200;
  if (formatOf(c) === 'xml') {
    return c.body(toXml(options.root, options.xml ?? body), status, {
      'content-type': 'application/xml; charset=UTF-8',
    });
  }
  return c.json(body as object, status);
}

/**
 * Style 2: the legacy `error-code` / `error-code-label` body of account, numbers and pricing,
 * with the HTTP status as the code, in JSON or XML.
 */
export function legacyStyle(options: { root?: string } = {}): ErrorStyle {
  return (err, c) =>
    respond(
      c,
      { 'error-code': String(err.status), 'error-code-label': err.label ?? legacyLabel(err) },
      { status: err.status, root: options.root ?? 'response' },
    );
}

function legacyLabel(err: ApiError): string {
  if (err.kind === 'unauthorized') return 'authentication failed';
  if (err.invalidParameters?.length) {
    return err.invalidParameters.map((p) => `${p.name}: ${p.reason}`).join('; ');
  }
  return err.detail;
}
