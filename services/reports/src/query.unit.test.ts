import { ApiError } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, parseAsyncRequest, parseSyncQuery, type RawParams } from './query';

const SMS = { account_id: 'abcd1234', product: 'SMS', direction: 'outbound' };
const DAY = { date_start: '2026-01-01T00:00:00Z', date_end: '2026-01-02T00:00:00+00:00' };

/** The problem a query is refused with: its type's fragment and the parameters it names. */
function refusal(parse: () => unknown): { type: string; status: number; names: string[] } {
  try {
    parse();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return {
      type: err.type.split('#')[1] ?? '',
      status: err.status,
      names: (err.invalidParameters ?? []).map((p) => p.name),
    };
  }
  throw new Error('accepted');
}

const sync = (raw: RawParams) => refusal(() => parseSyncQuery(raw));

describe('the synchronous query rules (spec 4.12)', () => {
  it('accepts a day of outbound SMS and an id list', () => {
    expect(parseSyncQuery({ ...SMS, ...DAY })).toMatchObject({
      accountId: 'abcd1234',
      product: 'SMS',
      direction: 'outbound',
      dateStart: { ms: Date.UTC(2026, 0, 1) },
      dateEnd: { ms: Date.UTC(2026, 0, 2) },
      includeMessage: false,
    });
    expect(parseSyncQuery({ ...SMS, id: 'A, B,A' }).ids).toEqual(['A', 'B']);
  });

  it.each([
    ['account_id missing', { product: 'SMS', direction: 'outbound', ...DAY }, ['account_id']],
    ['account_id not 8 characters', { ...SMS, account_id: 'abc', ...DAY }, ['account_id']],
    ['product missing', { account_id: 'abcd1234', ...DAY }, ['product']],
    ['product unknown', { ...SMS, product: 'FAX', ...DAY }, ['product']],
    ['direction missing for SMS', { account_id: 'abcd1234', product: 'SMS', ...DAY }, ['direction']],
    [
      'direction missing for MESSAGES',
      { account_id: 'abcd1234', product: 'MESSAGES', ...DAY },
      ['direction'],
    ],
    ['direction not inbound or outbound', { ...SMS, direction: 'sideways', ...DAY }, ['direction']],
    [
      'direction for NUMBER-INSIGHT',
      { account_id: 'abcd1234', product: 'NUMBER-INSIGHT', direction: 'outbound', ...DAY },
      ['direction'],
    ],
    [
      'direction for VERIFY-API',
      { account_id: 'abcd1234', product: 'VERIFY-API', direction: 'outbound', ...DAY },
      ['direction'],
    ],
    [
      'direction for CONVERSATIONS',
      { account_id: 'abcd1234', product: 'CONVERSATIONS', type: 'ip-voice', direction: 'inbound', ...DAY },
      ['direction'],
    ],
    ['date_start without date_end', { ...SMS, date_start: DAY.date_start }, ['date_end']],
    ['date_end without date_start', { ...SMS, date_end: DAY.date_end }, ['date_start']],
    ['neither dates nor id', { ...SMS }, ['date_start', 'date_end']],
    ['a date without an offset', { ...SMS, ...DAY, date_start: '2026-01-01T00:00:00' }, ['date_start']],
    ['a date that is not a date', { ...SMS, ...DAY, date_end: 'tomorrow' }, ['date_end']],
    [
      'date_end before date_start',
      { ...SMS, date_start: DAY.date_end, date_end: DAY.date_start },
      ['date_end'],
    ],
    ['more than 24 hours', { ...SMS, ...DAY, date_end: '2026-01-02T00:00:01Z' }, ['date_end']],
    [
      'include_message for NUMBER-INSIGHT',
      { account_id: 'abcd1234', product: 'NUMBER-INSIGHT', include_message: 'true', ...DAY },
      ['include_message'],
    ],
    ['include_message not a boolean', { ...SMS, ...DAY, include_message: 'yes' }, ['include_message']],
    [
      'type missing for CONVERSATIONS',
      { account_id: 'abcd1234', product: 'CONVERSATIONS', ...DAY },
      ['type'],
    ],
    ['type for SMS', { ...SMS, ...DAY, type: 'ip-voice' }, ['type']],
    [
      'type not a conversation type',
      { account_id: 'abcd1234', product: 'CONVERSATIONS', type: 'chat', ...DAY },
      ['type'],
    ],
    [
      'status for VOICE-CALL',
      { account_id: 'abcd1234', product: 'VOICE-CALL', status: 'delivered', ...DAY },
      ['status'],
    ],
    ['status not an SMS status', { ...SMS, ...DAY, status: 'lost' }, ['status']],
    ['a cursor not of this API', { ...SMS, ...DAY, cursor: '!!' }, ['cursor']],
  ])('refuses %s with 422 naming the parameter', (_what, raw, names) => {
    expect(sync(raw)).toEqual({ type: 'invalid-parameters', status: 422, names });
  });

  it('names every parameter at fault at once', () => {
    expect(sync({ product: 'NUMBER-INSIGHT', direction: 'inbound' }).names).toEqual([
      'account_id',
      'direction',
      'date_start',
      'date_end',
    ]);
  });

  it.each([
    ['date_start', { date_start: DAY.date_start }, ['date_start']],
    ['both dates', DAY, ['date_start', 'date_end']],
    ['status', { status: 'delivered' }, ['status']],
  ])('refuses id with %s as an invalid filter', (_what, extra, names) => {
    expect(sync({ ...SMS, id: 'A', ...extra })).toEqual({ type: 'invalid-filter', status: 422, names });
  });

  it('takes direction as optional for VOICE-CALL and ASR, and a +hhmm offset', () => {
    const voice = parseSyncQuery({ account_id: 'abcd1234', product: 'VOICE-CALL', ...DAY });
    expect(voice.direction).toBeUndefined();
    const asr = parseSyncQuery({
      account_id: 'abcd1234',
      product: 'ASR',
      direction: 'inbound',
      date_start: '2026-01-01T01:00:00+0100',
      date_end: '2026-01-01T12:00:00.500-0330',
    });
    expect(asr.dateStart?.ms).toBe(Date.UTC(2026, 0, 1));
  });

  it('round-trips its cursor', () => {
    const cursor = { createdAt: 1_767_225_600_123, seq: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('bm9wZQ')).toBeUndefined();
  });
});

describe('the asynchronous request', () => {
  it('defaults to the last seven days without the 24-hour limit', () => {
    const now = Date.UTC(2026, 3, 20);
    const request = parseAsyncRequest({ ...SMS, include_subaccounts: true }, now);
    expect(request.dateEnd.ms).toBe(now);
    expect(request.dateStart.ms).toBe(now - 7 * 86_400_000);
    expect(request.includeSubaccounts).toBe(true);
    const month = parseAsyncRequest({
      ...SMS,
      date_start: '2026-01-01T00:00:00Z',
      date_end: '2026-02-01T00:00:00Z',
    });
    expect(month.dateEnd.ms - month.dateStart.ms).toBe(31 * 86_400_000);
  });

  it('refuses id, a bad callback_url and the product rules of the synchronous query', () => {
    expect(refusal(() => parseAsyncRequest({ ...SMS, id: 'A' })).names).toEqual(['id']);
    expect(refusal(() => parseAsyncRequest({ ...SMS, callback_url: 'ftp://x' })).names).toEqual([
      'callback_url',
    ]);
    expect(refusal(() => parseAsyncRequest({ account_id: 'abcd1234', product: 'SMS' })).names).toEqual([
      'direction',
    ]);
  });
});
