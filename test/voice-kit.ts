/** What the voice end-to-end suites share: a customer's server, voice accounts, the sandbox callee. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tokenGenerate } from '@vonage/jwt';
import { Voice } from '@vonage/voice';
import { expect } from 'vitest';
import { type Account, basic, newAccount, stack, until } from './helpers';

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * A customer's server: records every request, and answers NCCOs where the test set one for a path
 * (`answers`), 200 otherwise.
 */
export async function startCustomerServer() {
  const received: Received[] = [];
  const answers = new Map<string, { status: number; body: string }>();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        body = { text };
      }
      received.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      const answer = answers.get(url.pathname);
      res.writeHead(answer?.status ?? 200, { 'content-type': 'application/json' }).end(answer?.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    received,
    answers,
    /** Bodies of the POSTs a path received, in arrival order. */
    events: (path: string) =>
      received.filter((r) => r.path === path && r.method === 'POST').map((r) => r.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type CustomerServer = Awaited<ReturnType<typeof startCustomerServer>>;

/** An account with a voice application; the client signs its JWTs with the application's key. */
export async function voiceAccount(
  init: Record<string, unknown> = {},
  application: Record<string, unknown> = {},
) {
  const account = await newAccount(init);
  const res = await fetch(`${stack.url}/v2/applications`, {
    method: 'POST',
    headers: {
      authorization: basic(account.api_key, account.api_secret),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'voice e2e', ...application }),
  });
  expect(res.status).toBe(201);
  const app = (await res.json()) as { id: string; keys: { private_key: string } };
  const voice = new Voice(
    { applicationId: app.id, privateKey: app.keys.private_key },
    { apiHost: stack.url },
  );
  const jwt = () => tokenGenerate(app.id, app.keys.private_key);
  return { account, applicationId: app.id, privateKey: app.keys.private_key, voice, jwt };
}

export type VoiceAccount = Awaited<ReturnType<typeof voiceAccount>>;

export const FROM = { type: 'phone' as const, number: '447700900999' };
export const phone = (number: string) => [{ type: 'phone' as const, number }];

export async function sandboxCall(uuid: string, control: Record<string, unknown>) {
  const res = await fetch(`${stack.url}/_sandbox/calls/${uuid}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(control),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function balance(account: Account): Promise<number> {
  const res = await fetch(
    `${stack.url}/account/get-balance?api_key=${account.api_key}&api_secret=${account.api_secret}`,
  );
  return ((await res.json()) as { value: number }).value;
}

/** The statuses a call's events carried, in the order they reached the receiver. */
export function statuses(server: CustomerServer, path: string, uuid: string) {
  return server
    .events(path)
    .filter((e) => e['uuid'] === uuid && typeof e['status'] === 'string')
    .map((e) => e['status'] as string);
}

/**
 * Waits until a call's event with `status` reaches the receiver; when it never does, fails with what
 * the sandbox knows of the call and of its account's webhook deliveries, to tell a slow queue from a
 * lost event.
 */
export async function untilStatus(server: CustomerServer, path: string, uuid: string, status: string) {
  const seen = await until(
    () => statuses(server, path, uuid),
    (s) => s.includes(status),
  );
  if (!seen.includes(status)) {
    const sandbox = { authorization: `Bearer ${stack.token}` };
    const call = (await (
      await fetch(`${stack.url}/_sandbox/calls/${uuid}`, { headers: sandbox })
    ).json()) as {
      history?: unknown;
      timeline?: unknown;
      pending_events?: number;
      alarm?: string;
    };
    throw new Error(
      `no ${status} event for ${uuid}; received ${JSON.stringify(seen)}; history ${JSON.stringify(call.history)}; timeline ${JSON.stringify(call.timeline)}; ${call.pending_events} events waiting, alarm ${call.alarm}, now ${new Date().toISOString()}`,
    );
  }
  return seen;
}

/** Waits until the sandbox says the call runs an NCCO action (`input`, `talk`...), so keys reach it. */
export async function untilAction(uuid: string, action: string): Promise<void> {
  const running = await until(
    async () => {
      const res = await fetch(`${stack.url}/_sandbox/calls/${uuid}`, {
        headers: { authorization: `Bearer ${stack.token}` },
      });
      return ((await res.json()) as { action?: string | null }).action ?? null;
    },
    (a) => a === action,
  );
  expect(running).toBe(action);
}
