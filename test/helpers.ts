import dns from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { inject } from 'vitest';

export const stack = inject('stack');

export interface Account {
  api_key: string;
  api_secret: string;
  signature_secret: string;
  signature_method: string;
}

/** A new account through the sandbox control plane. */
export async function newAccount(init: Record<string, unknown> = {}): Promise<Account> {
  const res = await fetch(`${stack.url}/_sandbox/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(init),
  });
  if (res.status !== 201) throw new Error(`sandbox account: ${res.status} ${await res.text()}`);
  return (await res.json()) as Account;
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** Options for an official SDK client pointed at the stack. */
export function sdkOptions() {
  return { restHost: stack.url, apiHost: stack.url };
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 that records requests and answers with the given status. */
export async function startReceiver(status: (req: IncomingMessage) => number = () => 200) {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status(req)).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The stack under the vendor's API host name, for SDK calls that insist on it (file downloads take
 * only vonage.com and nexmo.com hosts): while `use` runs, this process resolves `api.nexmo.com` to the
 * stack, and `use` gets `http://api.nexmo.com:<port>` to give the SDK as `apiHost`.
 */
export async function onVendorHost<T>(use: (apiHost: string) => Promise<T>): Promise<T> {
  const lookup = dns.lookup;
  dns.lookup = ((host: string, ...rest: unknown[]) =>
    (lookup as (...args: unknown[]) => void)(
      host === 'api.nexmo.com' ? '127.0.0.1' : host,
      ...rest,
    )) as typeof dns.lookup;
  try {
    return await use(`http://api.nexmo.com:${new URL(stack.url).port}`);
  } finally {
    dns.lookup = lookup;
  }
}

/** Polls `read` until `done` holds or `ms` pass; answers the last value read (the caller asserts on it). */
export async function until<T>(read: () => Promise<T> | T, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One entry of a simulated phone's inbox. */
export interface HandsetMessage {
  id: string;
  from: string;
  to: string;
  text: string;
  channel: 'sms' | 'voice';
  received_at: string;
}

/** What a simulated phone received, oldest first; `target` names another stack (restart tests). */
export async function inbox(
  msisdn: string,
  target: { url: string; token: string } = stack,
): Promise<HandsetMessage[]> {
  const res = await fetch(`${target.url}/_sandbox/handsets/${msisdn}/messages`, {
    headers: { authorization: `Bearer ${target.token}` },
  });
  return ((await res.json()) as { messages: HandsetMessage[] }).messages;
}
