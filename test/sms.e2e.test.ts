import { createHash } from 'node:crypto';
import { Accounts } from '@vonage/accounts';
import { Numbers } from '@vonage/numbers';
import { SMS } from '@vonage/sms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, basic, inbox, newAccount, sdkOptions, stack, startReceiver, until } from './helpers';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const smsClient = (a: Account) => new SMS({ apiKey: a.api_key, apiSecret: a.api_secret }, sdkOptions());

/** Raw `POST /sms/:format` with a form body. */
async function submit(fields: Record<string, string>, format = 'json', headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}/sms/${format}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  expect(res.status).toBe(200);
  return format === 'json'
    ? ((await res.json()) as { 'message-count': string; messages: Record<string, string>[] })
    : res.text();
}

async function statusOf(fields: Record<string, string>) {
  const body = (await submit(fields)) as { messages: Record<string, string>[] };
  return body.messages[0]!;
}

const bodies = (r: Receiver, path: string) =>
  r.received
    .filter((x) => x.url === path && x.method === 'POST')
    .map((x) => JSON.parse(x.body) as Record<string, string>);

/** The documented md5hash signature, written independently of the server. */
function md5hashSig(fields: Record<string, string>, secret: string): string {
  const text = Object.keys(fields)
    .filter((k) => k !== 'sig')
    .sort()
    .map((k) => `&${k}=${String(fields[k]).replace(/[&=]/g, '_')}`)
    .join('');
  return createHash('md5')
    .update(text + secret)
    .digest('hex');
}

describe('SMS through @vonage/sms', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('sends a text, a unicode text and a 400-character text with the right message-count', async () => {
    const acct = await newAccount();
    const sms = smsClient(acct);
    const text = await sms.send({ to: '447700900010', from: 'Acme', text: 'Hello from the sandbox' });
    expect(text.messageCount).toBe('1');
    expect(text.messages[0]).toMatchObject({
      to: '447700900010',
      status: '0',
      network: expect.stringMatching(/^234\d\d$/),
    });
    expect(text.messages[0]!.messagePrice).toMatch(/^0\.\d{8}$/);

    const unicode = await sms.send({
      to: '447700900011',
      from: 'Acme',
      text: 'Привет, как дела? ✓',
      type: 'unicode',
    } as never);
    expect(unicode.messageCount).toBe('1');
    // 80 Cyrillic letters: UCS-2, 67 per part.
    const longUnicode = await sms.send({ to: '447700900011', from: 'Acme', text: 'ж'.repeat(80) });
    expect(longUnicode.messageCount).toBe('2');

    const long = await sms.send({ to: '447700900012', from: 'Acme', text: 'x'.repeat(400) });
    expect(long.messageCount).toBe('3');
    expect(new Set(long.messages.map((m) => m.messageId)).size).toBe(3);
    // Each part is charged: the balance falls by three prices.
    const price = Number(long.messages[0]!.messagePrice);
    const last = Number(long.messages[2]!.remainingBalance);
    expect(Number(long.messages[0]!.remainingBalance) - last).toBeCloseTo(2 * price, 8);
    const balance = await new Accounts(
      { apiKey: acct.api_key, apiSecret: acct.api_secret },
      sdkOptions(),
    ).getBalance();
    expect(balance.value).toBeCloseTo(last, 8);
  });

  it('delivers to the handset and posts a receipt per part with every field', async () => {
    const acct = await newAccount();
    const sent = await smsClient(acct).send({
      to: '447700900013',
      from: 'Acme',
      text: `${'y'.repeat(200)} end`,
      callback: `${receiver.url}/receipts`,
      clientRef: 'order-42',
    } as never);
    expect(sent.messageCount).toBe('2');
    const receipts = await until(
      () => bodies(receiver, '/receipts').filter((b) => b['client-ref'] === 'order-42'),
      (r) => r.length === 2,
    );
    expect(receipts.map((r) => r.messageId).sort()).toEqual(sent.messages.map((m) => m.messageId).sort());
    for (const r of receipts) {
      expect(r).toMatchObject({
        msisdn: '447700900013',
        to: 'Acme',
        'network-code': sent.messages[0]!.network,
        price: sent.messages[0]!.messagePrice,
        status: 'delivered',
        'err-code': '0',
        'api-key': acct.api_key,
        'client-ref': 'order-42',
      });
      expect(r.scts).toMatch(/^\d{10}$/);
      expect(r['message-timestamp']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(r).not.toHaveProperty('sig');
    }
    const messages = await inbox('447700900013');
    expect(messages).toEqual([
      expect.objectContaining({ from: 'Acme', text: `${'y'.repeat(200)} end`, channel: 'sms' }),
    ]);
  });

  it('settles a burst to two phones: each message reaches its handset once, each part one receipt', async () => {
    const acct = await newAccount();
    const phones = ['447700900031', '447700900032'];
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        submit({
          api_key: acct.api_key,
          api_secret: acct.api_secret,
          from: 'Acme',
          to: phones[i % 2]!,
          text: `burst ${i}`,
          callback: `${receiver.url}/burst`,
          'client-ref': `burst-${acct.api_key}`,
        }),
      ),
    );
    const ids = sent.flatMap((b) =>
      (b as { messages: Record<string, string>[] }).messages.map((m) => m['message-id']),
    );
    expect(ids).toHaveLength(20);
    const receipts = await until(
      () => bodies(receiver, '/burst').filter((b) => b['client-ref'] === `burst-${acct.api_key}`),
      (r) => r.length >= 20,
    );
    // A moment more: a second settlement of the same parts would show up as extra receipts.
    await new Promise((r) => setTimeout(r, 1500));
    const settled = bodies(receiver, '/burst').filter((b) => b['client-ref'] === `burst-${acct.api_key}`);
    expect(settled.map((r) => r.messageId).sort()).toEqual([...ids].sort());
    expect(receipts.every((r) => r.status === 'delivered')).toBe(true);
    for (const [n, phone] of phones.entries()) {
      const texts = (await inbox(phone)).map((m) => m.text).filter((t) => t.startsWith('burst '));
      expect(texts.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `burst ${2 * i + n}`).sort());
    }
  });

  it('sends receipts to the account dr-callback-url, signed when the account signs', async () => {
    const acct = await newAccount({ sign_webhooks: true });
    await new Accounts(
      { apiKey: acct.api_key, apiSecret: acct.api_secret },
      sdkOptions(),
    ).updateAccountCallbacks({
      drCallBackUrl: `${receiver.url}/account-receipts`,
    });
    const sent = await smsClient(acct).send({ to: '447700900014', from: 'Acme', text: 'signed receipt' });
    const [r] = await until(
      () => bodies(receiver, '/account-receipts').filter((b) => b.messageId === sent.messages[0]!.messageId),
      (r) => r.length === 1,
    );
    expect(r!.sig).toBe(md5hashSig(r!, acct.signature_secret));
    // The official SDK's own verifier agrees.
    expect(
      new SMS({ apiKey: acct.api_key, apiSecret: acct.api_secret }).verifySignature(
        r!.sig!,
        r!,
        acct.signature_secret,
        'MD5HASH' as never,
      ),
    ).toBe(true);
  });

  it('sends no receipt when status-report-req is false', async () => {
    const acct = await newAccount();
    await submit({
      api_key: acct.api_key,
      api_secret: acct.api_secret,
      from: 'Acme',
      to: '447700900015',
      text: 'quiet',
      'status-report-req': 'false',
      callback: `${receiver.url}/quiet`,
    });
    await until(
      () => inbox('447700900015'),
      (m) => m.length === 1,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(bodies(receiver, '/quiet')).toHaveLength(0);
  });

  it('reports failed, expired and rejected outcomes in receipts, and keeps them off the handset', async () => {
    const acct = await newAccount();
    const sms = smsClient(acct);
    for (const to of ['447700900201', '447700900203']) {
      await sms.send({ to, from: 'Acme', text: 'outcome', callback: `${receiver.url}/outcomes` } as never);
    }
    const receipts = await until(
      () => bodies(receiver, '/outcomes'),
      (r) => r.length === 2,
    );
    expect(receipts.map((r) => [r.msisdn, r.status, r['err-code']]).sort()).toEqual([
      ['447700900201', 'failed', '8'],
      ['447700900203', 'rejected', '6'],
    ]);
    expect(await inbox('447700900201')).toEqual([]);
  });

  it('delivers an inbound SMS to a bought number at its moHttpUrl, in parts when long', async () => {
    const acct = await newAccount({ balance: 20 });
    const numbers = new Numbers({ apiKey: acct.api_key, apiSecret: acct.api_secret }, sdkOptions());
    const search = await numbers.getAvailableNumbers({ country: 'GB', type: 'mobile-lvn' } as never);
    const msisdn = search.numbers![0]!.msisdn!;
    await numbers.buyNumber({ country: 'GB', msisdn });
    await numbers.updateNumber({ country: 'GB', msisdn, moHttpUrl: `${receiver.url}/inbound` } as never);

    const res = await fetch(`${stack.url}/_sandbox/inbound-sms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: '447700900016', to: msisdn, text: `hello there ${'z'.repeat(200)}` }),
    });
    expect(res.status).toBe(202);
    const parts = await until(
      () => bodies(receiver, '/inbound').filter((b) => b.to === msisdn),
      (p) => p.length === 2,
    );
    expect(parts).toHaveLength(2);
    for (const p of parts) {
      expect(p).toMatchObject({
        'api-key': acct.api_key,
        msisdn: '447700900016',
        to: msisdn,
        type: 'text',
        keyword: 'HELLO',
        concat: 'true',
        'concat-total': '2',
      });
      expect(p['message-timestamp']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
    expect(parts.map((p) => p['concat-part']).sort()).toEqual(['1', '2']);
    expect(new Set(parts.map((p) => p['concat-ref'])).size).toBe(1);
    expect(parts.map((p) => p.text).join('')).toBe(`hello there ${'z'.repeat(200)}`);
  });

  it('answers 404 for an inbound SMS to a number nobody rents', async () => {
    const res = await fetch(`${stack.url}/_sandbox/inbound-sms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: '447700900016', to: '447700900099', text: 'hi' }),
    });
    expect(res.status).toBe(404);
  });
});

describe('SMS statuses', () => {
  let acct: Account;
  beforeAll(async () => {
    acct = await newAccount();
  });
  const creds = () => ({ api_key: acct.api_key, api_secret: acct.api_secret });
  const base = () => ({ ...creds(), from: 'Acme', to: '447700900020', text: 'hi' });

  it('2: a missing from, to, text or credentials', async () => {
    for (const field of ['from', 'to', 'text', 'api_key', 'api_secret'] as const) {
      const fields: Record<string, string> = base();
      delete fields[field];
      expect((await statusOf(fields)).status, field).toBe(field === 'api_secret' ? '2' : '2');
    }
  });

  it('3: invalid to, ttl, client-ref, type, message-class, and binary without udh', async () => {
    const invalid: Record<string, string>[] = [
      { to: '12345' },
      { ttl: '100' },
      { 'client-ref': 'r'.repeat(41) },
      { type: 'fax' },
      { 'message-class': '7' },
      { from: 'Far too long sender' },
    ];
    for (const change of invalid)
      expect((await statusOf({ ...base(), ...change })).status, JSON.stringify(change)).toBe('3');
    expect((await statusOf({ ...base(), type: 'binary', body: '0011' })).status).toBe('2');
    expect((await statusOf({ ...base(), type: 'wappush', title: 'x', url: 'notaurl' })).status).toBe('3');
  });

  it('accepts binary, wappush, vcard and vcal messages', async () => {
    expect(
      (await statusOf({ ...base(), type: 'binary', body: '0011223344', udh: '06050415811581' })).status,
    ).toBe('0');
    expect(
      (await statusOf({ ...base(), type: 'wappush', title: 'Site', url: 'https://example.com' })).status,
    ).toBe('0');
    expect((await statusOf({ ...base(), type: 'vcard', vcard: 'BEGIN:VCARD\nFN:A\nEND:VCARD' })).status).toBe(
      '0',
    );
    expect((await statusOf({ ...base(), type: 'vcal', vcal: 'BEGIN:VCALENDAR\nEND:VCALENDAR' })).status).toBe(
      '0',
    );
  });

  it('4: bad credentials; 6: an unrecognised prefix; 7: a barred number; 33: a de-activated one', async () => {
    expect((await statusOf({ ...base(), api_secret: 'Wrong12345' })).status).toBe('4');
    expect((await statusOf({ ...base(), to: '9991234567' })).status).toBe('6');
    expect((await statusOf({ ...base(), to: '447700900103' })).status).toBe('7');
    expect((await statusOf({ ...base(), to: '447700900204' })).status).toBe('33');
  });

  it('9: not enough credit, and nothing charged', async () => {
    const poor = await newAccount({ balance: 0.01 });
    const reply = await statusOf({
      api_key: poor.api_key,
      api_secret: poor.api_secret,
      from: 'Acme',
      to: '447700900021',
      text: 'x'.repeat(400),
    });
    expect(reply).toEqual({ status: '9', 'error-text': 'Partner quota exceeded' });
    const balance = await new Accounts(
      { apiKey: poor.api_key, apiSecret: poor.api_secret },
      sdkOptions(),
    ).getBalance();
    expect(balance.value).toBe(0.01);
  });

  it('12: a message of more than 30 parts', async () => {
    expect((await statusOf({ ...base(), text: 'x'.repeat(153 * 30 + 1) })).status).toBe('12');
  });

  it('14: a wrong signature; 32: a signature with a secret; a good signature is accepted', async () => {
    const fields = {
      api_key: acct.api_key,
      from: 'Acme',
      to: '447700900022',
      text: 'signed',
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const sig = md5hashSig(fields, acct.signature_secret);
    expect((await statusOf({ ...fields, sig })).status).toBe('0');
    expect((await statusOf({ ...fields, sig: '0'.repeat(32) })).status).toBe('14');
    expect((await statusOf({ ...fields, sig, api_secret: acct.api_secret })).status).toBe('32');
  });

  it('15: an alphanumeric or unrented sender to North America', async () => {
    expect((await statusOf({ ...base(), to: '12015550123' })).status).toBe('15');
    expect((await statusOf({ ...base(), from: '447700900001', to: '12015550123' })).status).toBe('15');
  });

  it('23: an invalid callback URL; 29: a demo account sending to a real-looking number', async () => {
    expect((await statusOf({ ...base(), callback: 'not a url' })).status).toBe('23');
    const demo = await newAccount({ demo_mode: true });
    const demoBase = { api_key: demo.api_key, api_secret: demo.api_secret, from: 'Acme', text: 'hi' };
    expect((await statusOf({ ...demoBase, to: '447400123456' })).status).toBe('29');
    expect((await statusOf({ ...demoBase, to: '447700900023' })).status).toBe('0');
  });

  it('answers XML for /sms/xml, errors included', async () => {
    const ok = (await submit({ ...base(), 'client-ref': 'ref-1' }, 'xml')) as string;
    expect(ok).toContain('<mt-submission-response>');
    expect(ok).toMatch(/<messages count="1">/);
    expect(ok).toMatch(/<messageId>[0-9A-F]{16}<\/messageId>/);
    expect(ok).toContain('<status>0</status>');
    expect(ok).toMatch(/<remainingBalance>\d+\.\d{8}<\/remainingBalance>/);
    expect(ok).toMatch(/<messagePrice>0\.\d{8}<\/messagePrice>/);
    expect(ok).toContain('<client-ref>ref-1</client-ref>');
    const bad = (await submit({ ...base(), to: '1' }, 'xml')) as string;
    expect(bad).toContain('<status>3</status>');
    expect(bad).toContain('<error-text>');
  });

  it('takes JSON bodies and Basic credentials as the official SDK sends them', async () => {
    const res = await fetch(`${stack.url}/sms/json`, {
      method: 'POST',
      headers: { authorization: basic(acct.api_key, acct.api_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Acme', to: '447700900024', text: 'json' }),
    });
    expect(((await res.json()) as { messages: { status: string }[] }).messages[0]!.status).toBe('0');
  });
});

describe('SMS throughput', () => {
  it('accepts exactly the account limit per second out of 100 concurrent submits', async () => {
    const acct = await newAccount({ balance: 100 });
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        statusOf({
          api_key: acct.api_key,
          api_secret: acct.api_secret,
          from: 'Acme',
          to: '447700900030',
          text: `m${i}`,
        }),
      ),
    );
    const elapsed = Date.now() - started;
    const accepted = replies.filter((r) => r.status === '0').length;
    const throttled = replies.filter((r) => r.status === '1').length;
    expect(accepted + throttled).toBe(100);
    // The window slides: within any second at most 30 are accepted.
    expect(accepted).toBeLessThanOrEqual(30 * Math.ceil(elapsed / 1000));
    if (elapsed < 1000) expect(accepted).toBe(30);
    expect(accepted).toBeGreaterThanOrEqual(30);
  });
});
