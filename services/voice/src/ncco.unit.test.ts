import { describe, expect, it } from 'vitest';
import { NCCO_SYNTAX_ERROR, parseNcco, parseNccoText } from './ncco';

const names = (value: unknown) => {
  const parsed = parseNcco(value);
  return parsed.ok ? [] : parsed.invalidParameters.map((p) => p.name);
};

describe('NCCO validation', () => {
  it('accepts every action in the shapes the reference and the SDKs use', () => {
    const parsed = parseNcco([
      {
        action: 'talk',
        text: 'Hi',
        bargeIn: true,
        loop: 2,
        level: '0.4',
        language: 'en-GB',
        style: 1,
        premium: true,
      },
      { action: 'stream', streamUrl: ['https://example.com/a.mp3'], level: -0.5, loop: 0 },
      {
        action: 'input',
        type: ['dtmf', 'speech'],
        dtmf: { maxDigits: 4, timeOut: 5 },
        speech: { language: 'en-US' },
      },
      {
        action: 'input',
        timeOut: 3,
        maxDigits: 2,
        submitOnHash: true,
        eventUrl: ['https://example.com/input'],
      },
      { action: 'record', format: 'wav', endOnSilence: 3, endOnKey: '#', timeOut: 60, beepStart: true },
      {
        action: 'connect',
        endpoint: [{ type: 'phone', number: '447700900001', dtmfAnswer: 'p1' }],
        timeout: 30,
      },
      {
        action: 'connect',
        endpoint: [{ type: 'websocket', uri: 'wss://example.com/ws', contentType: 'audio/l16;rate=16000' }],
      },
      { action: 'connect', endpoint: [{ type: 'sip', uri: 'sip:alice@example.com' }] },
      { action: 'connect', endpoint: [{ type: 'app', user: 'alice' }] },
      { action: 'conversation', name: 'room', musicOnHoldUrl: ['https://example.com/m.mp3'], record: true },
      { action: 'notify', payload: { foo: 'bar' }, eventUrl: ['https://example.com/notify'] },
      { action: 'wait', timeout: 0.5 },
    ]);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.actions).toHaveLength(12);
      expect(parsed.actions[0]).toMatchObject({ level: 0.4 });
    }
  });

  it('names the field of each rule it breaks', () => {
    expect(names([])).toEqual(['ncco']);
    expect(names({ action: 'talk', text: 'x' })).toEqual(['ncco']);
    expect(names([{ action: 'dance' }])).toEqual(['ncco.0.action']);
    expect(names(['talk'])).toEqual(['ncco.0']);
    expect(names([{ action: 'talk', text: 'x'.repeat(1501) }])).toEqual(['ncco.0.text']);
    expect(names([{ action: 'talk', text: 'x', language: 'xx-XX' }])).toEqual(['ncco.0.language']);
    expect(names([{ action: 'talk', text: 'x', level: 2 }])).toEqual(['ncco.0.level']);
    expect(names([{ action: 'stream', streamUrl: ['ftp://x'] }])).toEqual(['ncco.0.streamUrl.0']);
    expect(names([{ action: 'record', endOnKey: '##' }])).toEqual(['ncco.0.endOnKey']);
    expect(names([{ action: 'record', endOnSilence: 11 }])).toEqual(['ncco.0.endOnSilence']);
    expect(names([{ action: 'connect', endpoint: [] }])).toEqual(['ncco.0.endpoint']);
    expect(names([{ action: 'connect', endpoint: [{ type: 'phone', number: '12' }] }])).toEqual([
      'ncco.0.endpoint.0.number',
    ]);
    expect(names([{ action: 'conversation' }])).toEqual(['ncco.0.name']);
    expect(names([{ action: 'notify', payload: {} }])).toEqual(['ncco.0.eventUrl']);
    expect(names([{ action: 'input', type: ['fax'] }])).toEqual(['ncco.0.type.0']);
  });

  it("gives the vendor's reason for the error event", () => {
    const parsed = parseNcco([{ action: 'dance' }]);
    expect(!parsed.ok && parsed.reason).toMatch(new RegExp(`^${NCCO_SYNTAX_ERROR.replace('.', '\\.')}`));
    const text = parseNccoText('<Response/>');
    expect(text).toMatchObject({ ok: false, reason: expect.stringMatching(/not JSON/) });
    expect(parseNccoText('[{"action":"talk","text":"Hi"}]').ok).toBe(true);
  });
});
