import { describe, expect, it } from 'vitest';
import { account, call, freshNumber, inbox, latestCode, ledger, start, worker } from './helpers';

describe('starting a verification', () => {
  it('answers a request id and sends the code by SMS, holding the price with the ledger', async () => {
    const key = account();
    const number = freshNumber();
    const answer = await call('', key, { number, brand: 'Acme' });
    expect(answer).toEqual({ request_id: expect.stringMatching(/^[0-9a-f]{32}$/), status: '0' });
    const [message] = await inbox(number);
    expect(message).toMatchObject({ from: 'VERIFY', to: number, channel: 'sms' });
    expect(message!.text).toMatch(/^Acme code: \d{4}\. Valid for 5 minutes\.$/);
    const [hold] = await ledger(key);
    expect(hold).toMatchObject({
      kind: 'charge',
      product: 'VERIFY-API',
      id: answer['request_id'],
      amount: 10_000_000,
      record: {
        request_id: answer['request_id'],
        to: number,
        verify_status: 'IN PROGRESS',
        price: '0.10000000',
      },
    });
  });

  it('takes parameters from the query, a form or JSON, and credentials as Basic too', async () => {
    for (const options of [
      { method: 'GET' as const },
      { encoding: 'form' as const },
      { encoding: 'json' as const, basic: true },
    ]) {
      const answer = await call('', account(), { number: freshNumber(), brand: 'Acme' }, options);
      expect(answer['status']).toBe('0');
    }
  });

  it('answers XML with the reference root', async () => {
    const { xml } = await call('', account(), { number: freshNumber(), brand: 'Acme' }, { format: 'xml' });
    expect(xml).toMatch(/<verify_response>\s*<request_id>[0-9a-f]{32}<\/request_id>\s*<status>0<\/status>/);
  });

  it('sends from the sender id, with the code length, language and validity asked for', async () => {
    const number = freshNumber();
    await start(account(), {
      number,
      sender_id: 'AcmeBank',
      code_length: '6',
      lg: 'de-de',
      pin_expiry: '240',
      next_event_wait: '120',
    });
    const [message] = await inbox(number);
    expect(message!.from).toBe('AcmeBank');
    expect(message!.text).toMatch(/^Acme Code: \d{6}\. Gültig für 4 Minuten\.$/);
  });

  it('makes pin_expiry equal to next_event_wait when it is not a multiple of it', async () => {
    const number = freshNumber();
    await start(account(), { number, pin_expiry: '300', next_event_wait: '120' });
    expect((await inbox(number))[0]!.text).toContain('Valid for 2 minutes');
  });

  it("speaks the number's language by default, and reads a national number with its country", async () => {
    await start(account(), { number: '0170 0000001', country: 'de' });
    expect((await inbox('491700000001')).at(-1)!.text).toMatch(/^Acme Code: \d{4}\./);
  });

  it('sends a spoken code first on a text-to-speech workflow', async () => {
    const number = freshNumber();
    await start(account(), { number, workflow_id: '7' });
    const [call] = await inbox(number);
    expect(call!.channel).toBe('voice');
    expect(call!.text).toMatch(/^Your Acme verification code is \d, \d, \d, \d\./);
  });

  it('starts a PSD2 request with the payee and amount in the message', async () => {
    const number = freshNumber();
    const answer = await call('psd2/', account(), { number, payee: 'Shop Ltd', amount: '48' });
    expect(answer['status']).toBe('0');
    expect((await inbox(number))[0]!.text).toMatch(
      /^Code \d{4} confirms your payment of EUR 48\.00 to Shop Ltd\. Valid for 5 minutes\.$/,
    );
  });

  it('sends nothing to a phone that is switched off, yet accepts the request', async () => {
    await start(account(), { number: '447700900102' });
    expect(await inbox('447700900102')).toEqual([]);
  });
});

describe('pin_code', () => {
  it('is refused (status 20) for an account not allowed to set it', async () => {
    const answer = await call('', account(), { number: freshNumber(), brand: 'Acme', pin_code: '9876' });
    expect(answer).toEqual({
      request_id: '',
      status: '20',
      error_text: 'This account does not support the parameter: pin_code.',
    });
  });

  it('is the code sent for an account allowed to set it', async () => {
    const number = freshNumber();
    await start(account('pin'), { number, pin_code: '9876' });
    expect(await latestCode(number)).toBe('9876');
  });
});

describe('refusals of a new request', () => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    // An empty parameter counts as absent, as a blank form field would.
    ['no number', { number: '' }, '2', /mandatory parameter `number`/],
    ['no brand', { brand: '' }, '2', /mandatory parameter `brand`/],
    ['a brand of 19 characters', { brand: 'A'.repeat(19) }, '3', /brand/],
    ['a sender id of 12 characters', { sender_id: 'S'.repeat(12) }, '3', /sender_id/],
    ['a code length of 5', { code_length: '5' }, '3', /code_length/],
    ['an unknown language', { lg: 'xx-yy' }, '3', /lg/],
    ['pin_expiry under 60 s', { pin_expiry: '59' }, '3', /pin_expiry/],
    ['next_event_wait over 900 s', { next_event_wait: '901' }, '3', /next_event_wait/],
    ['workflow 8', { workflow_id: '8' }, '3', /workflow_id/],
    ['a national number without its country', { number: '07700 900001' }, '3', /number/],
    ['a country of three letters', { country: 'GBR' }, '3', /country/],
    ['a number not in service', { number: '447700900106' }, '3', /number/],
  ];
  for (const [what, params, status, text] of cases) {
    it(`answers status ${status} for ${what}`, async () => {
      const answer = await call('', account(), { number: freshNumber(), brand: 'Acme', ...params });
      expect(answer).toMatchObject({ request_id: '', status });
      expect(answer['error_text']).toMatch(text);
    });
  }

  it('answers status 2 without credentials and 4 with wrong ones', async () => {
    expect(await call('', null, { number: freshNumber(), brand: 'Acme' })).toMatchObject({
      status: '2',
      error_text: expect.stringMatching(/api_key/),
    });
    expect(await call('', null, { api_key: 'plain-x', number: freshNumber(), brand: 'Acme' })).toMatchObject({
      status: '2',
      error_text: expect.stringMatching(/api_secret/),
    });
    expect(await call('', account('ghost'), { number: freshNumber(), brand: 'Acme' })).toEqual({
      request_id: '',
      status: '4',
      error_text: 'Invalid credentials were provided',
    });
  });

  it('answers status 7 for a barred number (magic suffix 103)', async () => {
    expect(await call('', account(), { number: '447700900103', brand: 'Acme' })).toMatchObject({
      status: '7',
      error_text: 'The number you are trying to verify is blacklisted for verification.',
    });
  });

  it('answers status 15 for a failed lookup (suffix 108), a premium-rate number and a pager', async () => {
    for (const number of ['447700900108', '449098765432', '447623456789']) {
      expect(await call('', account(), { number, brand: 'Acme' })).toMatchObject({
        status: '15',
        error_text: 'The destination number is not in a supported network',
      });
    }
  });

  it('answers status 29 for a demo account and an ordinary number, not for a test number', async () => {
    const key = account('demo');
    expect((await call('', key, { number: '447400123456', brand: 'Acme' }))['status']).toBe('29');
    expect((await call('', key, { number: freshNumber(), brand: 'Acme' }))['status']).toBe('0');
  });

  it('answers status 9 when the account cannot pay, 1 when throttled, 5 when the ledger fails', async () => {
    expect(await call('', account('poor'), { number: freshNumber(), brand: 'Acme' })).toMatchObject({
      status: '9',
      error_text: 'Partner quota exceeded',
    });
    expect(await call('', account('busy'), { number: freshNumber(), brand: 'Acme' })).toMatchObject({
      status: '1',
      error_text: 'Throttled',
    });
    expect(await call('', account('broken'), { number: freshNumber(), brand: 'Acme' })).toEqual({
      request_id: '',
      status: '5',
      error_text: 'Internal Error',
    });
  });

  it('answers status 10, naming the request in progress, for a second request to the same number', async () => {
    const key = account();
    const number = freshNumber();
    const first = await start(key, { number });
    expect(await call('', key, { number, brand: 'Acme' })).toEqual({
      request_id: first,
      status: '10',
      error_text: 'Concurrent verifications to the same number are not allowed',
    });
    // Another account's verification to the number is no concern of this one's.
    expect((await call('', account(), { number, brand: 'Acme' }))['status']).toBe('0');
  });

  it('frees the number again when a request is refused by the ledger', async () => {
    const key = account('poor');
    const number = freshNumber();
    expect((await call('', key, { number, brand: 'Acme' }))['status']).toBe('9');
    expect((await call('', key, { number, brand: 'Acme' }))['status']).toBe('9');
  });

  it('answers a 404 problem for an unknown format', async () => {
    const res = await worker.fetch(
      new Request('https://verify.test/verify/html?number=1', { method: 'POST' }),
    );
    expect(res.status).toBe(404);
  });
});
