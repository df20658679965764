import { parseAmount } from '@comms/core';
import { callOutcome, endpointCallOutcome, lookupNumber, priceFor } from '@comms/network';
import type { CallEndpoint } from './endpoints';
import type { CallSetup, Target } from './machine';
import type { NccoAction } from './ncco';

/** Per-minute rates of the endpoints that are not phone numbers: SIP trunks and websockets. */
const IP_RATE = parseAmount('0.00400000');
/** Per-minute rate of a call received on a rented number, whatever its country. */
export const INBOUND_RATE = parseAmount('0.00400000');

/** What the caller decides about a new leg; the network decides the rest. */
export interface LegRequest {
  uuid: string;
  conversationUuid: string;
  apiKey: string;
  applicationId: string;
  to: CallEndpoint;
  from: CallEndpoint;
  event: Target;
  answer: Target | null;
  ncco: NccoAction[] | null;
  parentUuid: string | null;
  machineDetection: 'continue' | 'hangup' | null;
  lengthTimerSeconds: number;
  ringingTimerSeconds: number;
  baseUrl: string;
}

/**
 * An inbound leg: a phone calls a number the account rents. The platform picks up at once (started,
 * ringing, answered) and the application's NCCO decides the rest; the caller's network carries it.
 *
 * @example
 * inboundSetup({ ..., from: { type: 'phone', number: '447700900001' }, to: { type: 'phone', number: rented } }).direction // 'inbound'
 */
export function inboundSetup(request: Omit<LegRequest, 'parentUuid' | 'machineDetection'>): CallSetup {
  const { lengthTimerSeconds, ringingTimerSeconds, ...rest } = request;
  const caller = request.from.type === 'phone' ? lookupNumber(request.from.number) : null;
  const carrier = caller?.ok ? caller.currentCarrier : null;
  return {
    ...rest,
    parentUuid: null,
    machineDetection: null,
    direction: 'inbound',
    lengthTimerMs: lengthTimerSeconds * 1000,
    ringingTimerMs: ringingTimerSeconds * 1000,
    outcome: { behaviour: 'answer', ringAfterMs: 0, actAfterMs: 0, hangupAfterMs: null, detail: null },
    rate: INBOUND_RATE,
    network: {
      code: carrier?.networkCode ?? '',
      name: carrier?.name ?? null,
      country: caller?.ok ? caller.country.code : null,
      countryName: caller?.ok ? caller.country.name : null,
    },
    product: 'VOICE-CALL',
  };
}

/**
 * A leg's setup: the request plus what the simulated network says of the destination, which is what
 * the callee will do, the per-minute rate and the network that carries the call. A phone number no
 * plan reads, or a country without a voice price, fails the call rather than the request.
 *
 * @example
 * legSetup({ ..., to: { type: 'phone', number: '447700900400' } }).outcome.behaviour // 'busy'
 */
export function legSetup(request: LegRequest): CallSetup {
  const { lengthTimerSeconds, ringingTimerSeconds, ...rest } = request;
  const base = {
    ...rest,
    direction: 'outbound' as const,
    lengthTimerMs: lengthTimerSeconds * 1000,
    ringingTimerMs: ringingTimerSeconds * 1000,
  };
  const to = request.to;
  if (to.type !== 'phone') {
    return {
      ...base,
      outcome: endpointCallOutcome(),
      rate: to.type === 'sip' || to.type === 'websocket' ? IP_RATE : 0,
      network: { code: to.type.toUpperCase(), name: null, country: null, countryName: null },
      product: to.type === 'websocket' ? 'WEBSOCKET-CALL' : 'VOICE-CALL',
    };
  }
  const info = lookupNumber(to.number);
  const unroutable = {
    ...base,
    outcome: {
      behaviour: 'fail',
      ringAfterMs: null,
      actAfterMs: 1000,
      hangupAfterMs: null,
      detail: 'cannot_route',
    },
    rate: 0,
    network: { code: '', name: null, country: null, countryName: null },
    product: 'VOICE-CALL',
  } satisfies CallSetup;
  if (!info.ok) return unroutable;
  const carrier = info.currentCarrier;
  const rate = priceFor('voice', info.country.code, carrier?.networkCode);
  if (rate === undefined) return unroutable;
  return {
    ...base,
    outcome: callOutcome(info),
    rate,
    network: {
      code: carrier?.networkCode ?? '',
      name: carrier?.name ?? null,
      country: info.country.code,
      countryName: info.country.name,
    },
    product: 'VOICE-CALL',
  };
}
