import { parseAmount } from '@comms/core';
import { priceFor } from '@comms/network';
import { describe, expect, it } from 'vitest';
import type { CallEndpoint } from './endpoints';
import { legSetup } from './setup';

const request = (to: CallEndpoint) =>
  legSetup({
    uuid: 'u',
    conversationUuid: 'CON-u',
    apiKey: 'k',
    applicationId: 'a',
    to,
    from: { type: 'phone', number: '447700900999' },
    event: { url: 'https://example.com/e', method: 'POST' },
    answer: null,
    ncco: null,
    parentUuid: null,
    machineDetection: null,
    lengthTimerSeconds: 30,
    ringingTimerSeconds: 20,
    baseUrl: 'https://api.example.test',
  });

describe('what the network decides about a new leg', () => {
  it("prices a phone call at its network's per-minute voice price", () => {
    const setup = request({ type: 'phone', number: '447700900001' });
    expect(setup.outcome.behaviour).toBe('answer');
    expect(setup.rate).toBe(priceFor('voice', 'GB', setup.network.code));
    expect(setup.network).toMatchObject({ country: 'GB', countryName: 'United Kingdom' });
    expect(setup).toMatchObject({ lengthTimerMs: 30_000, ringingTimerMs: 20_000, product: 'VOICE-CALL' });
  });

  it('follows the magic call suffixes', () => {
    expect(request({ type: 'phone', number: '447700900400' }).outcome.behaviour).toBe('busy');
    expect(request({ type: 'phone', number: '12015550403' }).outcome.behaviour).toBe('machine');
  });

  it('fails, rather than refuses, a call to a number no plan reads', () => {
    const setup = request({ type: 'phone', number: '9999999' });
    expect(setup.outcome).toMatchObject({ behaviour: 'fail', detail: 'cannot_route' });
    expect(setup.rate).toBe(0);
  });

  it('prices SIP and websocket legs at the IP rate, websockets as WEBSOCKET-CALL', () => {
    expect(request({ type: 'sip', uri: 'sip:a@example.com' })).toMatchObject({
      rate: parseAmount('0.004'),
      product: 'VOICE-CALL',
      network: { code: 'SIP' },
    });
    expect(
      request({ type: 'websocket', uri: 'wss://example.com/s', 'content-type': 'audio/l16;rate=16000' }),
    ).toMatchObject({ product: 'WEBSOCKET-CALL', network: { code: 'WEBSOCKET' } });
    expect(request({ type: 'vbc', extension: '1234' }).rate).toBe(0);
  });
});
