import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Accounts } from '@vonage/accounts';
import { CheckStatus, SearchStatus, Verify, VerifyWorkflows } from '@vonage/verify';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module shared with `pnpm dev`.
import { startStack } from '../scripts/stack.mjs';
import { type Account, basic, type HandsetMessage, inbox, newAccount, sdkOptions, stack } from './helpers';
import { freePort } from './ports';

type Body = Record<string, unknown>;

const verifyClient = (a: Account, url = stack.url) =>
  new Verify({ apiKey: a.api_key, apiSecret: a.api_secret }, { restHost: url, apiHost: url });

/** Numbers of the Italian magic block (393120000xxx, ordinary phones), a new one for every use. */
let suffix = 0;
function freshNumber(): string {
  suffix += 1;
  return `393120000${String(suffix).padStart(3, '0')}`;
}

/** A brand no other request uses, so that a phone's messages can be told apart. */
const brand = () => `T${Math.random().toString(36).slice(2, 10)}`;

/** The phone's messages of one request, told apart by its brand. */
async function messagesOf(msisdn: string, brandName: string, url?: string, token?: string) {
  const target = url && token ? { url, token } : stack;
  return (await inbox(msisdn, target)).filter((m) => m.text.includes(brandName));
}

/** The code in a message as the user would read or hear it. */
function codeIn(message: HandsetMessage): string {
  const code =
    message.channel === 'sms'
      ? /code: (\w{4,6})\./.exec(message.text)?.[1]
      : /(\w(?:, \w){3,5})/.exec(message.text)?.[1]?.replace(/, /g, '');
  if (!code) throw new Error(`no code in "${message.text}"`);
  return code;
}

async function latestCode(msisdn: string, brandName: string, url?: string, token?: string) {
  const last = (await messagesOf(msisdn, brandName, url, token)).at(-1);
  if (!last) throw new Error(`no message for ${brandName} at ${msisdn}`);
  return codeIn(last);
}

const wrong = (code: string) => (code === '0000' ? '1111' : '0000');

/** A raw call; JSON is parsed, XML answered as text. */
async function raw(
  path: string,
  init: {
    query?: Record<string, string>;
    form?: Record<string, string>;
    json?: Body;
    headers?: Record<string, string>;
  },
): Promise<{ status: number; type: string; body: Body; text: string }> {
  const url = `${stack.url}${path}${init.query ? `?${new URLSearchParams(init.query)}` : ''}`;
  const body = init.form
    ? new URLSearchParams(init.form).toString()
    : init.json
      ? JSON.stringify(init.json)
      : undefined;
  const contentType = init.form ? 'application/x-www-form-urlencoded' : 'application/json';
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body !== undefined ? { 'content-type': contentType } : {}), ...init.headers },
    body,
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, text, body: type.includes('json') ? (JSON.parse(text) as Body) : {} };
}

const credentials = (a: Account) => ({ api_key: a.api_key, api_secret: a.api_secret });

/** A new request by raw JSON; answers the body. */
async function request(a: Account, params: Body, path = '/verify/json'): Promise<Body> {
  return (await raw(path, { json: { ...credentials(a), ...params } })).body;
}

/** A decimal EUR string as integer units of 10^-8, so that money is compared exactly. */
function units(eur: string | number): number {
  const [whole, frac = ''] = String(typeof eur === 'number' ? eur.toFixed(8) : eur).split('.');
  return Number(whole) * 1e8 + Number(frac.padEnd(8, '0'));
}

async function balanceOf(a: Account): Promise<number> {
  const balance = await new Accounts(
    { apiKey: a.api_key, apiSecret: a.api_secret },
    sdkOptions(),
  ).getBalance();
  return units(balance.value);
}

/**
 * Started before everything else, so that the 30 s before it may be cancelled pass while the other
 * tests run; the last test of the file cancels it.
 */
let cancellable: { account: Account; requestId: string; startedAt: number };

beforeAll(async () => {
  const account = await newAccount();
  const startedAt = Date.now();
  const result = await verifyClient(account).start({ number: freshNumber(), brand: brand() });
  cancellable = { account, requestId: (result as { requestId: string }).requestId, startedAt };
});

describe('verify through the official SDK', () => {
  it('starts, sends the PIN to the phone, refuses a wrong code, accepts the right one; search shows SUCCESS', async () => {
    const account = await newAccount();
    const client = verifyClient(account);
    const number = freshNumber();
    const name = brand();
    const before = await balanceOf(account);
    const started = (await client.start({ number, brand: name })) as { requestId: string; status: string };
    expect(started.status).toBe(CheckStatus.SUCCESS);
    expect(started.requestId).toMatch(/^[0-9a-f]{32}$/);
    const [sms] = await messagesOf(number, name);
    expect(sms).toMatchObject({ from: 'VERIFY', channel: 'sms' });
    expect(sms!.text).toMatch(new RegExp(`^${name} code: \\d{4}\\. Valid for 5 minutes\\.$`));
    const code = codeIn(sms!);

    const miss = await client.check(started.requestId, wrong(code));
    expect(miss).toMatchObject({
      requestId: started.requestId,
      status: CheckStatus.CODE_MISMATCH,
      errorText: 'The code inserted does not match the expected value',
    });
    const hit = await client.check(started.requestId, code);
    expect(hit).toMatchObject({
      requestId: started.requestId,
      eventId: expect.stringMatching(/^[0-9A-F]{16}$/),
      status: CheckStatus.SUCCESS,
      price: '0.10000000',
      currency: 'EUR',
      estimatedPriceMessagesSent: expect.stringMatching(/^0\.\d{8}$/),
    });

    const found = (await client.search(started.requestId)) as unknown as Body;
    expect(found).toMatchObject({
      requestId: started.requestId,
      accountId: account.api_key,
      status: SearchStatus.SUCCESS,
      number,
      price: '0.10000000',
      currency: 'EUR',
      senderId: 'verify',
      checks: [
        { code: wrong(code), status: 'INVALID' },
        { code, status: 'VALID' },
      ],
      events: [{ type: 'sms', id: (hit as { eventId: string }).eventId }],
    });
    for (const field of ['dateSubmitted', 'dateFinalized', 'firstEventDate', 'lastEventDate']) {
      expect(found[field]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    // A success costs the verification price and nothing else.
    expect(before - (await balanceOf(account))).toBe(units('0.10'));
  });

  it('fails the request on the fourth wrong code (17), gives the price back, and search shows FAILED', async () => {
    const account = await newAccount();
    const client = verifyClient(account);
    const number = freshNumber();
    const name = brand();
    const before = await balanceOf(account);
    const { requestId } = (await client.start({ number, brand: name })) as { requestId: string };
    const bad = wrong(await latestCode(number, name));
    for (let i = 0; i < 3; i++) {
      expect((await client.check(requestId, bad)).status).toBe(CheckStatus.CODE_MISMATCH);
    }
    expect(await client.check(requestId, bad)).toMatchObject({
      status: CheckStatus.INVALID_CODE,
      errorText: 'The wrong code was provided too many times. Request terminated',
    });
    expect((await client.check(requestId, await latestCode(number, name))).status).toBe(
      CheckStatus.INVALID_CODE,
    );
    const found = (await client.search(requestId)) as unknown as Body;
    expect(found['status']).toBe(SearchStatus.FAILED);
    expect(found['checks']).toHaveLength(4);
    expect(await balanceOf(account)).toBe(before);
  });

  it('triggers the next event: a call reads out a new code, which the check accepts', async () => {
    const account = await newAccount();
    const client = verifyClient(account);
    const number = freshNumber();
    const name = brand();
    const { requestId } = (await client.start({
      number,
      brand: name,
      workflowId: VerifyWorkflows.SMS_TTS,
    })) as { requestId: string };
    const first = await latestCode(number, name);
    expect(await client.trigger(requestId)).toEqual({ status: '0', command: 'trigger_next_event' });
    const messages = await messagesOf(number, name);
    expect(messages.map((m) => m.channel)).toEqual(['sms', 'voice']);
    const second = codeIn(messages[1]!);
    expect(second).not.toBe(first);
    // Nothing is left to trigger after the last event of SMS-TTS.
    // The SDK keeps the snake_case keys beside its camelCase ones.
    expect(await client.trigger(requestId)).toMatchObject({
      status: '19',
      errorText: `No more events are left to execute for the request ['${requestId}']`,
    });
    expect((await client.check(requestId, second)).status).toBe(CheckStatus.SUCCESS);
  });

  it('refuses to cancel within the first 30 s (19)', async () => {
    const account = await newAccount();
    const client = verifyClient(account);
    const { requestId } = (await client.start({ number: freshNumber(), brand: brand() })) as {
      requestId: string;
    };
    expect(await client.cancel(requestId)).toMatchObject({
      status: '19',
      errorText: `Verification request ['${requestId}'] can't be cancelled within the first 30 seconds.`,
    });
  });

  it('starts a PSD2 request when no brand is given', async () => {
    const account = await newAccount();
    const number = freshNumber();
    const started = (await verifyClient(account).start({ number, payee: 'Shop 42', amount: 48.5 })) as {
      status: string;
    };
    expect(started.status).toBe('0');
    const [message] = await messagesOf(number, 'Shop 42');
    expect(message!.text).toMatch(/^Code \d{4} confirms your payment of EUR 48\.50 to Shop 42\./);
  });

  it('sets pin_code only for an account allowed to (status 20 otherwise)', async () => {
    const number = freshNumber();
    const name = brand();
    const refused = await verifyClient(await newAccount()).start({ number, brand: name, pinCode: '8642' });
    expect(refused).toMatchObject({
      status: '20',
      errorText: 'This account does not support the parameter: pin_code.',
    });
    await verifyClient(await newAccount({ pin_code_allowed: true })).start({
      number,
      brand: name,
      pinCode: '8642',
    });
    expect(await latestCode(number, name)).toBe('8642');
  });

  it('answers 101 for an unknown request id, and for a request of another account', async () => {
    const account = await newAccount();
    const unknown = (await verifyClient(account).search('0'.repeat(32))) as unknown as Body;
    expect(unknown).toMatchObject({ status: '101', errorText: 'No response found' });
    const theirs = (await verifyClient(await newAccount()).search(cancellable.requestId)) as unknown as Body;
    expect(theirs['status']).toBe('101');
  });
});

describe('verify over raw HTTP', () => {
  it('takes GET query parameters and form bodies, and answers XML', async () => {
    const account = await newAccount();
    const viaGet = await raw('/verify/xml', {
      query: { ...credentials(account), number: freshNumber(), brand: 'Acme' },
    });
    expect(viaGet.type).toContain('xml');
    expect(viaGet.text).toMatch(
      /<verify_response>\s*<request_id>[0-9a-f]{32}<\/request_id>\s*<status>0<\/status>/,
    );
    const id = /<request_id>(\w+)</.exec(viaGet.text)![1]!;
    const viaForm = await raw('/verify/check/xml', {
      form: { ...credentials(account), request_id: id, code: '0000' },
    });
    expect(viaForm.text).toMatch(/<verify_response>\s*<request_id>\w+<\/request_id>\s*<status>16<\/status>/);
    const searched = await raw('/verify/search/xml', { query: { ...credentials(account), request_id: id } });
    expect(searched.text).toMatch(/<verify_request>[\s\S]*<status>IN PROGRESS<\/status>/);
    expect(searched.text).toMatch(/<checks>\s*<check>[\s\S]*<status>INVALID<\/status>[\s\S]*<\/checks>/);
    expect(searched.text).toMatch(/<events>\s*<event>\s*<type>sms<\/type>/);
  });

  it('lists several requests for repeated request_ids', async () => {
    const account = await newAccount();
    const a = (await request(account, { number: freshNumber(), brand: 'Acme' }))['request_id'] as string;
    const b = (await request(account, { number: freshNumber(), brand: 'Acme' }))['request_id'] as string;
    const query = new URLSearchParams(credentials(account));
    query.append('request_ids', a);
    query.append('request_ids', b);
    const res = await fetch(`${stack.url}/verify/search/json?${query}`);
    const body = (await res.json()) as { verification_requests: { request_id: string }[] };
    expect(body.verification_requests.map((r) => r.request_id).sort()).toEqual([a, b].sort());
  });

  it('answers 10 for a second request to a number with one in progress, naming it', async () => {
    const account = await newAccount();
    const number = freshNumber();
    const first = await request(account, { number, brand: 'Acme' });
    expect(await request(account, { number, brand: 'Acme' })).toEqual({
      request_id: first['request_id'],
      status: '10',
      error_text: 'Concurrent verifications to the same number are not allowed',
    });
  });

  it('answers the statuses of refused requests: 2, 3, 4, 7, 9, 15, 29', async () => {
    const account = await newAccount();
    expect(await request(account, { brand: 'Acme' })).toMatchObject({
      status: '2',
      error_text: 'Your request is incomplete and missing the mandatory parameter `number`',
    });
    expect(await request(account, { number: freshNumber(), brand: 'A'.repeat(19) })).toMatchObject({
      status: '3',
      error_text: 'Invalid value for param: brand',
    });
    const badSecret = await raw('/verify/json', {
      json: { number: freshNumber(), brand: 'Acme' },
      headers: { authorization: basic(account.api_key, 'not-the-secret') },
    });
    expect(badSecret.body).toEqual({
      request_id: '',
      status: '4',
      error_text: 'Invalid credentials were provided',
    });
    expect((await request(account, { number: '393120000103', brand: 'Acme' }))['status']).toBe('7');
    expect((await request(account, { number: '393120000108', brand: 'Acme' }))['status']).toBe('15');
    const poor = await newAccount({ balance: 0.05 });
    expect(await request(poor, { number: freshNumber(), brand: 'Acme' })).toMatchObject({
      status: '9',
      error_text: 'Partner quota exceeded',
    });
    const demo = await newAccount({ demo_mode: true });
    expect((await request(demo, { number: '447400123456', brand: 'Acme' }))['status']).toBe('29');
    expect((await request(demo, { number: freshNumber(), brand: 'Acme' }))['status']).toBe('0');
  });

  it('answers 1 beyond 30 requests a second', async () => {
    const account = await newAccount();
    const numbers = Array.from({ length: 40 }, freshNumber);
    const answers = await Promise.all(numbers.map((number) => request(account, { number, brand: 'Acme' })));
    const statuses = answers.map((a) => a['status']);
    expect(statuses.filter((s) => s === '0').length).toBeLessThanOrEqual(30);
    expect(statuses).toContain('1');
    expect(answers.find((a) => a['status'] === '1')).toMatchObject({ error_text: 'Throttled' });
  });

  it('answers 6 for a check or control of an unknown request', async () => {
    const account = await newAccount();
    const check = await raw('/verify/check/json', {
      json: { ...credentials(account), request_id: 'a'.repeat(32), code: '1234' },
    });
    expect(check.body['status']).toBe('6');
    const control = await raw('/verify/control/json', {
      json: { ...credentials(account), request_id: 'a'.repeat(32), cmd: 'cancel' },
    });
    expect(control.body).toEqual({
      status: '6',
      error_text: `The requestId '${'a'.repeat(32)}' does not exist or its no longer active.`,
    });
  });
});

describe('durability', () => {
  it('keeps a request in flight across a restart of the stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'comms-verify-restart-'));
    const options = { port: await freePort(), token: 'restart-token', stateDir: join(dir, 'state') };
    let second: { url: string; stop(): Promise<void> } | undefined;
    const first = await startStack(options);
    try {
      const res = await fetch(`${first.url}/_sandbox/accounts`, {
        method: 'POST',
        headers: { authorization: 'Bearer restart-token' },
      });
      const account = (await res.json()) as Account;
      const number = freshNumber();
      const name = brand();
      const { requestId } = (await verifyClient(account, first.url).start({ number, brand: name })) as {
        requestId: string;
      };
      const code = await latestCode(number, name, first.url, 'restart-token');
      await first.stop();
      second = await startStack(options);
      const client = verifyClient(account, second!.url);
      expect((await client.check(requestId, code)).status).toBe(CheckStatus.SUCCESS);
      expect(((await client.search(requestId)) as unknown as Body)['status']).toBe(SearchStatus.SUCCESS);
    } finally {
      await first.stop();
      await second?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('cancel after 30 s', () => {
  it('cancels a request once 30 s have passed, before its second event', async () => {
    const wait = cancellable.startedAt + 31_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = verifyClient(cancellable.account);
    const before = await balanceOf(cancellable.account);
    expect(await client.cancel(cancellable.requestId)).toEqual({ status: '0', command: 'cancel' });
    expect(((await client.search(cancellable.requestId)) as unknown as Body)['status']).toBe(
      SearchStatus.CANCELLED,
    );
    // A cancelled request costs nothing: the held price comes back.
    expect((await balanceOf(cancellable.account)) - before).toBe(units('0.10'));
  }, 45_000);
});
