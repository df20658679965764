import { ApiError } from '@comms/core';
import { describe, expect, it } from 'vitest';
import { readCreateBody } from './create-body';

const base = {
  to: [{ type: 'phone', number: '447700900001' }],
  from: { type: 'phone', number: '447700900999' },
  ncco: [{ action: 'talk', text: 'Hi' }],
  event_url: ['https://example.com/event'],
};

function problems(body: unknown) {
  try {
    readCreateBody(body);
  } catch (err) {
    if (err instanceof ApiError) return err.invalidParameters?.map((p) => p.name) ?? [];
    throw err;
  }
  return [];
}

describe('the create body', () => {
  it('takes the defaults of spec 4.7', () => {
    expect(readCreateBody(base)).toMatchObject({
      to: { type: 'phone', number: '447700900001' },
      from: { type: 'phone', number: '447700900999' },
      answer: null,
      event: { url: 'https://example.com/event', method: 'POST' },
      machineDetection: null,
      lengthTimer: 7200,
      ringingTimer: 60,
    });
    const { ncco: _, ...noNcco } = base;
    expect(readCreateBody({ ...noNcco, answer_url: ['https://example.com/answer'] }).answer).toEqual({
      url: 'https://example.com/answer',
      method: 'GET',
    });
  });

  it('reads random_from_number, the SDK websocket shape and advanced machine detection', () => {
    const { from: _, ...noFrom } = base;
    expect(readCreateBody({ ...noFrom, random_from_number: true }).from).toBeNull();
    const ws = readCreateBody({
      ...base,
      to: [
        {
          type: 'websocket',
          uri: 'wss://example.com/s',
          contentType: 'audio/l16;rate=8000',
          headers: { a: 'b' },
        },
      ],
    });
    expect(ws.to).toEqual({
      type: 'websocket',
      uri: 'wss://example.com/s',
      'content-type': 'audio/l16;rate=8000',
      headers: { a: 'b' },
    });
    expect(
      readCreateBody({ ...base, advanced_machine_detection: { behavior: 'hangup', mode: 'detect' } })
        .machineDetection,
    ).toBe('hangup');
  });

  it('lists every invalid field at once', () => {
    expect(
      problems({
        to: [{ type: 'phone', number: '1' }],
        ncco: [{ action: 'talk' }],
        length_timer: 0,
        ringing_timer: 500,
      }).sort(),
    ).toEqual(['from', 'length_timer', 'ncco.0.text', 'ringing_timer', 'to.0.number']);
    expect(problems(null)).toEqual(['body']);
    expect(problems('call me')).toEqual(['body']);
  });
});
