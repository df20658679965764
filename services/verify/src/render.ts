import { type JsonObject, type JsonValue, respond } from '@comms/core';
import type { Context } from 'hono';

/** The family's endpoints, each with its own error body and XML root. */
export type Endpoint = 'request' | 'check' | 'search' | 'control';

/** XML root elements as the reference names them. */
const XML_ROOT: Readonly<Record<Endpoint, string>> = {
  request: 'verify_response',
  check: 'verify_response',
  search: 'verify_request',
  control: 'response',
};

/** Element names of the items of the reference's wrapped XML arrays. */
const XML_ITEM: Readonly<Record<string, string>> = {
  checks: 'check',
  events: 'event',
  verification_requests: 'verify_request',
};

/**
 * The XML shape of a JSON body: the same fields, with each array wrapped in its own element and its
 * items named as the reference names them (`<checks><check>…</check></checks>`). JSON and XML are
 * built from one body, never field by field twice.
 *
 * @example
 * xmlShape({ events: [{ type: 'sms', id: 'A1' }] }) // { events: { event: [{ type: 'sms', id: 'A1' }] } }
 */
export function xmlShape(body: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    out[key] = Array.isArray(value) ? { [XML_ITEM[key] ?? key]: value.map(xmlValue) } : xmlValue(value);
  }
  return out;
}

function xmlValue(value: JsonValue): JsonValue {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? xmlShape(value) : value;
}

/** Answers an endpoint's body in the request's format. */
export function answer(c: Context, endpoint: Endpoint, body: JsonObject): Response {
  return respond(c, body, { root: XML_ROOT[endpoint], xml: xmlShape(body) });
}

/**
 * Answers a search by several ids: `verification_requests` holding one `verify_request` per request
 * found.
 */
export function answerList(c: Context, items: JsonObject[]): Response {
  return respond(
    c,
    { verification_requests: items },
    { root: 'verification_requests', xml: { verify_request: items.map(xmlShape) } },
  );
}
