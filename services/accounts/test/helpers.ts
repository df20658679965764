import type { SandboxAccount, SandboxAccountInit } from '@comms/core';
import { exports } from 'cloudflare:workers';

/** The worker under test, through its default entrypoint (HTTP and RPC). */
export const worker = exports.default;

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
