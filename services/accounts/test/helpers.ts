import { exports } from 'cloudflare:workers';
import type { AccountsRpc, SandboxAccount, SandboxAccountInit } from '@comms/core';

/**
 * The worker under test, through its default entrypoint (HTTP and RPC), typed by its contract
 * as sibling services see it.
 */
export const worker = exports.default as unknown as AccountsRpc & {
  fetch(request: Request): Promise<Response>;
};

export const BASE = 'https://rest.example.test';

/** A fresh account with known credentials. */
export async function newAccount(init: SandboxAccountInit = {}): Promise<SandboxAccount> {
  const result = await worker.createSandboxAccount(init);
  if (!result.ok) throw new Error(result.error);
  return result.account;
}

export function basic(key: string, secret: string): string {
  return `Basic ${btoa(`${key}:${secret}`)}`;
}

export function get(path: string, init: RequestInit = {}): Promise<Response> {
  return worker.fetch(new Request(`${BASE}${path}`, init));
}

export function post(path: string, body: Record<string, string> | string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  let payload: string;
  if (typeof body === 'string') payload = body;
  else {
    payload = new URLSearchParams(body).toString();
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  }
  return worker.fetch(new Request(`${BASE}${path}`, { ...init, method: 'POST', body: payload, headers }));
}

/** Any request; an object body is sent as JSON, a string body as is. */
export function request(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit = { method, headers: new Headers(headers) };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const h = init.headers as Headers;
    if (!h.has('content-type')) h.set('content-type', 'application/json');
  }
  return worker.fetch(new Request(`${BASE}${path}`, init));
}
