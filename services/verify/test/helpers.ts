import { runDurableObjectAlarm } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { ChargeRequest, HandsetMessage } from '@comms/core';
import { expect, vi } from 'vitest';

/** The worker under test, through its default entrypoint. */
export const worker = exports.default as unknown as {
  fetch(request: Request): Promise<Response>;
  reset(): Promise<void>;
};

/** What the accounts stub of vitest.config.ts was asked to charge and refund. */
export interface LedgerEntry extends ChargeRequest {
  kind: 'charge' | 'refund';
}

const accountsStub = env.ACCOUNTS as unknown as { ledger(apiKey: string): Promise<LedgerEntry[]> };
const smsStub = env.SMS as unknown as { handsetMessages(msisdn: string): Promise<HandsetMessage[]> };

/** A fresh API key the accounts stub understands: its first word chooses how the account behaves. */
export function account(
  flag: 'plain' | 'pin' | 'demo' | 'poor' | 'busy' | 'broken' | 'ghost' = 'plain',
): string {
  return `${flag}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A number of the GB magic block no other test uses (suffixes 000-099 are ordinary phones). */
let nextSuffix = 0;
export function freshNumber(): string {
  nextSuffix = (nextSuffix + 1) % 100;
  return `4477009000${String(nextSuffix).padStart(2, '0')}`;
}

export type Body = Record<string, unknown>;

export interface CallOptions {
  method?: 'GET' | 'POST';
  encoding?: 'json' | 'form';
  format?: 'json' | 'xml';
  /** Credentials as `Authorization: Basic` instead of parameters. */
  basic?: boolean;
}

/**
 * Calls an endpoint (`/verify/<path><format>`) as a client would, with the account's credentials.
 * Answers the parsed JSON body, or the XML text.
 */
export async function call(
  path: '' | 'psd2/' | 'check/' | 'search/' | 'control/',
  apiKey: string | null,
  params: Record<string, string | string[]>,
  options: CallOptions = {},
): Promise<Body & { xml?: string }> {
  const credentials = apiKey && !options.basic ? { api_key: apiKey, api_secret: 'secret' } : {};
  const all = { ...credentials, ...params };
  const url = new URL(`https://verify.test/verify/${path}${options.format ?? 'json'}`);
  const headers: Record<string, string> = {};
  if (apiKey && options.basic) headers['authorization'] = `Basic ${btoa(`${apiKey}:secret`)}`;
  let body: string | undefined;
  if ((options.method ?? 'POST') === 'GET') {
    for (const [k, v] of Object.entries(all)) for (const one of [v].flat()) url.searchParams.append(k, one);
  } else if (options.encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(all)) for (const one of [v].flat()) form.append(k, one);
    body = form.toString();
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(all);
  }
  const res = await worker.fetch(new Request(url, { method: options.method ?? 'POST', headers, body }));
  expect(res.status).toBe(200);
  if (options.format === 'xml') return { xml: await res.text() };
  return (await res.json()) as Body;
}

/** Starts a request and answers its id, failing the test on any other status. */
export async function start(apiKey: string, params: Record<string, string>): Promise<string> {
  const answer = await call('', apiKey, { brand: 'Acme', ...params });
  expect(answer).toMatchObject({ status: '0' });
  return answer['request_id'] as string;
}

/** What the phone with this number received. */
export function inbox(msisdn: string): Promise<HandsetMessage[]> {
  return smsStub.handsetMessages(msisdn);
}

/** The code in the phone's latest message: an SMS's digits, or the digits a call read out. */
export async function latestCode(msisdn: string): Promise<string> {
  const last = (await inbox(msisdn)).at(-1);
  if (!last) throw new Error(`no message for ${msisdn}`);
  const digits = last.channel === 'sms' ? /\b(\d{4,6})\b/.exec(last.text)?.[1] : spokenCode(last.text);
  if (!digits) throw new Error(`no code in "${last.text}"`);
  return digits;
}

function spokenCode(text: string): string | undefined {
  return /(\d(?:, \d){3,5})/.exec(text)?.[1]?.replace(/, /g, '');
}

export function ledger(apiKey: string): Promise<LedgerEntry[]> {
  return accountsStub.ledger(apiKey);
}

/** The Durable Object of a request. */
export function requestStub(requestId: string) {
  return env.VERIFY_REQUEST.get(env.VERIFY_REQUEST.idFromName(requestId));
}

/** Moves the mocked clock on by `ms` and fires the request's alarm, which must be armed. */
export async function fireAlarmAfter(requestId: string, ms: number): Promise<void> {
  vi.setSystemTime(Date.now() + ms);
  expect(await runDurableObjectAlarm(requestStub(requestId))).toBe(true);
}

/** A search for one request by its own account. */
export function search(apiKey: string, requestId: string): Promise<Body> {
  return call('search/', apiKey, { request_id: requestId }, { method: 'GET' });
}
