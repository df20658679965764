import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  account,
  call,
  fireAlarmAfter,
  freshNumber,
  inbox,
  latestCode,
  ledger,
  requestStub,
  search,
  start,
  worker,
} from './helpers';

/**
 * Time is mocked (Date only; the worker and its objects share the tests' isolate) and starts an hour
 * ahead of the real clock, so that no alarm armed here fires on its own: the tests fire them with
 * runDurableObjectAlarm once the mocked clock has reached them.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

const SEARCH_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A code that is not the one sent. */
const wrong = (code: string) => (code === '0000' ? '1111' : '0000');

describe('checking a code', () => {
  it('answers 16 for a wrong code, then 0 for the right one, and settles the price', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    const code = await latestCode(number);
    expect(await call('check/', key, { request_id: id, code: wrong(code) })).toEqual({
      request_id: id,
      status: '16',
      error_text: 'The code inserted does not match the expected value',
    });
    const right = await call('check/', key, { request_id: id, code });
    expect(right).toEqual({
      request_id: id,
      event_id: expect.stringMatching(/^[0-9A-F]{16}$/),
      status: '0',
      price: '0.10000000',
      currency: 'EUR',
      estimated_price_messages_sent: expect.stringMatching(/^0\.\d{8}$/),
    });
    const item = await search(key, id);
    expect(item).toMatchObject({
      request_id: id,
      account_id: key,
      status: 'SUCCESS',
      number,
      price: '0.10000000',
      currency: 'EUR',
      sender_id: 'verify',
      date_submitted: expect.stringMatching(SEARCH_DATE),
      date_finalized: expect.stringMatching(SEARCH_DATE),
      first_event_date: expect.stringMatching(SEARCH_DATE),
      last_event_date: expect.stringMatching(SEARCH_DATE),
      checks: [
        {
          date_received: expect.stringMatching(SEARCH_DATE),
          code: wrong(code),
          status: 'INVALID',
          ip_address: '',
        },
        { date_received: expect.stringMatching(SEARCH_DATE), code, status: 'VALID', ip_address: '' },
      ],
      events: [{ type: 'sms', id: right['event_id'] }],
      estimated_price_messages_sent: right['estimated_price_messages_sent'],
    });
    // The held price is kept: one charge, with the report record of the request.
    const entries = await ledger(key);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'charge',
      amount: 10_000_000,
      record: { request_id: id, to: number, country: 'GB', currency: 'EUR', price: '0.10000000' },
    });
    // The number is free again, and the finished request refuses further checks (status 6).
    expect((await call('', key, { number, brand: 'Acme' }))['status']).toBe('0');
    expect(await call('check/', key, { request_id: id, code })).toMatchObject({
      request_id: id,
      status: '6',
      error_text: expect.stringContaining(`Request '${id}' was not found or it has been verified already`),
    });
  });

  it('fails the request on the fourth wrong code (17) and refuses every check after', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    const bad = wrong(await latestCode(number));
    for (let i = 0; i < 3; i++) {
      expect((await call('check/', key, { request_id: id, code: bad }))['status']).toBe('16');
    }
    expect(await call('check/', key, { request_id: id, code: bad })).toEqual({
      request_id: id,
      status: '17',
      error_text: 'The wrong code was provided too many times. Request terminated',
    });
    expect((await call('check/', key, { request_id: id, code: await latestCode(number) }))['status']).toBe(
      '17',
    );
    const item = await search(key, id);
    expect(item['status']).toBe('FAILED');
    expect(item['price']).toBe('0.00000000');
    expect(item['checks']).toHaveLength(4);
    // The held price is given back, and the charge's report fields show the final status.
    expect((await ledger(key)).map((e) => [e.kind, e.amount, e.record['verify_status']])).toEqual([
      ['charge', 10_000_000, 'FAILED'],
      ['refund', 10_000_000, 'FAILED'],
    ]);
  });

  it("answers 6 for another account's request and for an id that never was one", async () => {
    const id = await start(account(), { number: freshNumber() });
    expect((await call('check/', account(), { request_id: id, code: '1234' }))['status']).toBe('6');
    expect((await call('check/', account(), { request_id: 'f'.repeat(32), code: '1234' }))['status']).toBe(
      '6',
    );
  });

  it('answers 2 and 3 for a missing or malformed id or code', async () => {
    const key = account();
    expect((await call('check/', key, { code: '1234' }))['error_text']).toMatch(/`request_id`/);
    expect((await call('check/', key, { request_id: 'a'.repeat(32) }))['status']).toBe('2');
    expect(await call('check/', key, { request_id: 'a'.repeat(33), code: '1234' })).toEqual({
      request_id: 'a'.repeat(33),
      status: '3',
      error_text: 'Invalid value for param: request_id',
    });
    expect((await call('check/', key, { request_id: 'a'.repeat(32), code: '123' }))['status']).toBe('3');
    expect(
      await call('check/', account('ghost'), { request_id: 'a'.repeat(32), code: '1234' }),
    ).toMatchObject({
      status: '4',
      error_text: 'Bad credentials',
    });
    expect(
      (await call('check/', account('busy'), { request_id: 'a'.repeat(32), code: '1234' }))['status'],
    ).toBe('1');
  });
});

describe('time (alarms)', () => {
  it('sends the next attempt when next_event_wait has passed: a call reading out the code', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    const code = await latestCode(number);
    await fireAlarmAfter(id, 300_000);
    const messages = await inbox(number);
    expect(messages.map((m) => m.channel)).toEqual(['sms', 'voice']);
    // The first code ran out with the first wait (300 s each), so the call carries a new one.
    const spoken = await latestCode(number);
    expect(spoken).not.toBe(code);
    const item = await search(key, id);
    expect((item['events'] as { type: string }[]).map((e) => e.type)).toEqual(['sms', 'tts']);
    expect((await call('check/', key, { request_id: id, code: spoken }))['status']).toBe('0');
  });

  it('expires the request by alarm when pin_expiry passes, gives the price back, frees the number', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number, workflow_id: '6', pin_expiry: '60' });
    // Not yet: the alarm only re-arms.
    await fireAlarmAfter(id, 59_000);
    expect((await search(key, id))['status']).toBe('IN PROGRESS');
    await fireAlarmAfter(id, 1_000);
    const item = await search(key, id);
    expect(item).toMatchObject({
      status: 'EXPIRED',
      price: '0.00000000',
      date_finalized: expect.stringMatching(SEARCH_DATE),
    });
    expect((await ledger(key)).map((e) => [e.kind, e.record['verify_status']])).toEqual([
      ['charge', 'EXPIRED'],
      ['refund', 'EXPIRED'],
    ]);
    expect((await call('check/', key, { request_id: id, code: await latestCode(number) }))['status']).toBe(
      '6',
    );
    expect((await call('', key, { number, brand: 'Acme' }))['status']).toBe('0');
    // Nothing is left to do.
    expect(await runDurableObjectAlarm(requestStub(id))).toBe(false);
  });

  it('applies time that passed without an alarm before answering', async () => {
    const key = account();
    const id = await start(key, { number: freshNumber(), workflow_id: '6', pin_expiry: '60' });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await search(key, id))['status']).toBe('EXPIRED');
  });
});

describe('control', () => {
  it('refuses cancel in the first 30 s (19), cancels after, and a cancelled request is over', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    expect(await call('control/', key, { request_id: id, cmd: 'cancel' })).toEqual({
      status: '19',
      error_text: `Verification request ['${id}'] can't be cancelled within the first 30 seconds.`,
    });
    vi.setSystemTime(Date.now() + 30_000);
    expect(await call('control/', key, { request_id: id, cmd: 'cancel' })).toEqual({
      status: '0',
      command: 'cancel',
    });
    expect((await search(key, id))['status']).toBe('CANCELLED');
    expect((await call('control/', key, { request_id: id, cmd: 'cancel' }))['status']).toBe('6');
    expect((await call('check/', key, { request_id: id, code: await latestCode(number) }))['status']).toBe(
      '6',
    );
    expect((await ledger(key)).at(-1)).toMatchObject({
      kind: 'refund',
      record: { verify_status: 'CANCELLED' },
    });
  });

  it('refuses cancel once the second attempt has been made', async () => {
    const key = account();
    const id = await start(key, { number: freshNumber() });
    await fireAlarmAfter(id, 300_000);
    expect(await call('control/', key, { request_id: id, cmd: 'cancel' })).toEqual({
      status: '19',
      error_text: `Verification request  ['${id}'] can't be cancelled now. Too many attempts to re-deliver have already been made.`,
    });
  });

  it('triggers the next attempt now with a new code and a new allowance, until none is left', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number, workflow_id: '4' });
    const first = await latestCode(number);
    for (let i = 0; i < 3; i++) await call('check/', key, { request_id: id, code: wrong(first) });
    expect(
      await call('control/', key, { request_id: id, cmd: 'trigger_next_event' }, { method: 'GET' }),
    ).toEqual({
      status: '0',
      command: 'trigger_next_event',
    });
    expect(await inbox(number)).toHaveLength(2);
    const second = await latestCode(number);
    // Three wrong checks of the old code no longer count against the new one.
    for (let i = 0; i < 3; i++) {
      expect((await call('check/', key, { request_id: id, code: wrong(second) }))['status']).toBe('16');
    }
    expect(await call('control/', key, { request_id: id, cmd: 'trigger_next_event' })).toEqual({
      status: '19',
      error_text: `No more events are left to execute for the request ['${id}']`,
    });
    expect((await call('check/', key, { request_id: id, code: second }))['status']).toBe('0');
  });

  it('answers 2, 3 and 6 for a missing command, an unknown one, and an unknown request', async () => {
    const key = account();
    expect((await call('control/', key, { request_id: 'a'.repeat(32) }))['error_text']).toMatch(/`cmd`/);
    expect(await call('control/', key, { request_id: 'a'.repeat(32), cmd: 'pause' })).toEqual({
      status: '3',
      error_text: 'Invalid value for param: cmd',
    });
    expect(
      await call('control/', key, { request_id: 'a'.repeat(32), cmd: 'cancel' }, { format: 'xml' }),
    ).toEqual({
      xml: expect.stringMatching(/<response>\s*<status>6<\/status>/),
    });
  });
});

describe('search', () => {
  it("answers 101 for an unknown id and for another account's request, leaving no state behind", async () => {
    const id = await start(account(), { number: freshNumber() });
    const stranger = account();
    expect(await search(stranger, id)).toEqual({
      request_id: id,
      status: '101',
      error_text: 'No response found',
    });
    const never = 'b'.repeat(32);
    expect((await search(stranger, never))['status']).toBe('101');
    await runInDurableObject(requestStub(never), (_, state) => {
      expect(state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray()).toEqual(
        [],
      );
    });
  });

  it('lists several requests for request_ids, skipping unknown ones', async () => {
    const key = account();
    const a = await start(key, { number: freshNumber() });
    const b = await start(key, { number: freshNumber() });
    const answer = await call('search/', key, { request_ids: [a, b, 'c'.repeat(32)] }, { method: 'GET' });
    const items = answer['verification_requests'] as { request_id: string; status: string }[];
    expect(items.map((i) => [i.request_id, i.status])).toEqual([
      [a, 'IN PROGRESS'],
      [b, 'IN PROGRESS'],
    ]);
    const tooMany = Array.from({ length: 11 }, (_, i) => String(i).repeat(32).slice(0, 32));
    expect((await call('search/', key, { request_ids: tooMany }))['status']).toBe('3');
    expect((await call('search/', key, {}))['status']).toBe('2');
  });

  it('answers XML with wrapped checks and events', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    await call('check/', key, { request_id: id, code: wrong(await latestCode(number)) });
    const { xml } = await call('search/', key, { request_id: id }, { format: 'xml', method: 'GET' });
    expect(xml).toMatch(/<verify_request>/);
    expect(xml).toMatch(/<checks>\s*<check>\s*<date_received>[^<]+<\/date_received>\s*<code>\d{4}<\/code>/);
    expect(xml).toMatch(/<events>\s*<event>\s*<type>sms<\/type>\s*<id>[0-9A-F]{16}<\/id>/);
  });
});

describe('reset', () => {
  it('wipes every request and lock', async () => {
    const key = account();
    const number = freshNumber();
    const id = await start(key, { number });
    await worker.reset();
    expect((await search(key, id))['status']).toBe('101');
    expect((await call('', key, { number, brand: 'Acme' }))['status']).toBe('0');
  });
});
