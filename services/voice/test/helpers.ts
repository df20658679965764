import { runDurableObjectAlarm } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { ChargeRequest, HandsetMessage, JsonObject, VoiceRpc, WebhookJob } from '@comms/core';
import { vi } from 'vitest';

/** The worker under test, through its default entrypoint: HTTP, and the sandbox's RPC. */
export const worker = exports.default as unknown as VoiceRpc & { fetch(request: Request): Promise<Response> };

const testEnv = env as unknown as Env & { TEST_PRIVATE_KEY: string; WEBHOOK_SINK: Fetcher };
const accountsStub = env.ACCOUNTS as unknown as { ledger(apiKey: string): Promise<ChargeRequest[]> };
const smsStub = env.SMS as unknown as { handsetMessages(msisdn: string): Promise<HandsetMessage[]> };

/** A fresh account key; its application is `app-<key>` (see the accounts stub). */
export function account(): string {
  return `acct${crypto.randomUUID().slice(0, 8)}`;
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const text = (s: string) => b64url(new TextEncoder().encode(s));

/** An application JWT (RS256) of the account's application, issued now. */
export async function jwt(apiKey: string): Promise<string> {
  const der = Uint8Array.from(
    atob(testEnv.TEST_PRIVATE_KEY.replace(/-----[^-]+-----/g, '').replace(/\s/g, '')),
    (c) => c.charCodeAt(0),
  );
  const key = await crypto.subtle.importKey(
    'pkcs8',
    der,
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const now = Math.floor(Date.now() / 1000);
  const signed = `${text(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${text(
    JSON.stringify({ application_id: `app-${apiKey}`, iat: now, exp: now + 600, jti: crypto.randomUUID() }),
  )}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(signed));
  return `${signed}.${b64url(new Uint8Array(signature))}`;
}

/** Calls the API as the account's application. */
export async function api(apiKey: string, method: string, path: string, body?: unknown) {
  const res = await worker.fetch(
    new Request(`https://api.example.test${path}`, {
      method,
      headers: { authorization: `Bearer ${await jwt(apiKey)}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
  const textBody = await res.text();
  return { status: res.status, body: (textBody ? JSON.parse(textBody) : null) as JsonObject };
}

export function legStub(uuid: string) {
  return env.CALL_LEG.get(env.CALL_LEG.idFromName(uuid));
}

/** Moves the clock on and runs the alarms of the given legs, as the runtime would. */
export async function advance(ms: number, ...uuids: string[]) {
  vi.setSystemTime(Date.now() + ms);
  for (const uuid of uuids) await runDurableObjectAlarm(legStub(uuid));
}

/** What a leg looks like to the sandbox. */
export async function inspect(uuid: string) {
  return (await worker.inspect(uuid)) as {
    call: JsonObject;
    history: { status: string }[];
    children: string[];
    charged: boolean;
  } | null;
}

/** The webhook jobs the queue carried so far (all tests share the sink). */
export async function webhooks(): Promise<WebhookJob[]> {
  return (await testEnv.WEBHOOK_SINK.fetch('https://sink.test/')).json();
}

/** Polls the sink until the jobs of a call satisfy `done` (the queue delivers in real time). */
export async function webhooksOf(uuid: string, done: (jobs: WebhookJob[]) => boolean, ms = 10_000) {
  const end = performance.now() + ms;
  for (;;) {
    const jobs = (await webhooks()).filter((j) => j.id.startsWith(`voice-${uuid}-`));
    if (done(jobs) || performance.now() > end) return jobs.sort((a, b) => seq(a) - seq(b));
    await new Promise((r) => setTimeout(r, 50));
  }
}

const seq = (job: WebhookJob) => Number(job.id.split('-').at(-1));

export const ledger = (apiKey: string) => accountsStub.ledger(apiKey);
export const handset = (msisdn: string) => smsStub.handsetMessages(msisdn);
