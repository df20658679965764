import { type Amount, formatAmount, type JsonObject, parseAmount, vendorDateTime } from '@comms/core';
import type { RequestState } from './machine';

/** The parts of a request's state that its price and records depend on. */
export type Progress = Pick<RequestState, 'status' | 'submittedAt' | 'finalizedAt' | 'events'>;

import type { Subject } from './messages';
import type { RequestKind } from './params';

/** What a successful verification costs (the reference's example price); the only thing charged. */
export const VERIFY_PRICE: Amount = parseAmount('0.10');

export const CURRENCY = 'EUR';

/** How the vendor words the pricing of the records: a price per successful verification. */
const PRICING_MODEL = 'per-successful-verification';

/** The `from` of attempts when the request names no `sender_id` (reference default). */
export const DEFAULT_SENDER = 'VERIFY';

/** The `sender_id` search shows when the request named none (reference default). */
const DEFAULT_SEARCH_SENDER = 'verify';

/** What is known about a request when it is made, and never changes afterwards. */
export interface RequestFacts {
  requestId: string;
  apiKey: string;
  kind: RequestKind;
  /** E.164 digits. */
  number: string;
  senderId: string | null;
  subject: Subject;
  locale: string;
  country: { code: string; name: string };
  network: { code: string; name: string } | null;
  lineType: string;
  /** False for a phone that is switched off or unreachable: attempts are made, nothing arrives. */
  reachable: boolean;
  /** What one attempt costs the vendor: an SMS to the number's network, or a minute of a call. */
  attemptPrices: { sms: Amount; tts: Amount };
}

/**
 * What the account pays for the request: the verification price while it can still succeed and once
 * it has, nothing when it ended any other way.
 */
export function chargedPrice(state: Progress): Amount {
  return state.status === 'IN PROGRESS' || state.status === 'SUCCESS' ? VERIFY_PRICE : 0;
}

/** The price of the attempts made so far (`estimated_price_messages_sent`), for information only. */
export function messagesPrice(facts: RequestFacts, state: Progress): Amount {
  return state.events.reduce((sum, e) => sum + facts.attemptPrices[e.type], 0);
}

/** One search item (spec 2.8): every field, dates not yet known as empty strings. */
export function searchItem(facts: RequestFacts, state: RequestState): JsonObject {
  const first = state.events[0];
  const last = state.events.at(-1);
  return {
    request_id: facts.requestId,
    account_id: facts.apiKey,
    status: state.status,
    number: facts.number,
    price: formatAmount(chargedPrice(state)),
    currency: CURRENCY,
    sender_id: facts.senderId ?? DEFAULT_SEARCH_SENDER,
    date_submitted: vendorDateTime(state.submittedAt),
    date_finalized: state.finalizedAt === null ? '' : vendorDateTime(state.finalizedAt),
    first_event_date: first ? vendorDateTime(first.at) : '',
    last_event_date: last ? vendorDateTime(last.at) : '',
    checks: state.checks.map((c) => ({
      date_received: vendorDateTime(c.at),
      code: c.code,
      status: c.status,
      // Deprecated and unused (spec 2.8).
      ip_address: '',
    })),
    events: state.events.map((e) => ({ type: e.type, id: e.id })),
    estimated_price_messages_sent: formatAmount(messagesPrice(facts, state)),
  };
}

/** The `VERIFY-API` report record of a request (spec 2.14), as the ledger stores it. */
export function usageRecord(facts: RequestFacts, state: Progress): JsonObject {
  const iso = (at: number | null | undefined) => (at == null ? null : new Date(at).toISOString());
  return {
    account_id: facts.apiKey,
    request_id: facts.requestId,
    from: facts.senderId ?? DEFAULT_SENDER,
    to: facts.number,
    locale: facts.locale,
    number_type: facts.lineType,
    network: facts.network?.code ?? null,
    network_name: facts.network?.name ?? null,
    country: facts.country.code,
    country_name: facts.country.name,
    date_received: iso(state.submittedAt),
    date_finalized: iso(state.finalizedAt),
    first_event_date: iso(state.events[0]?.at),
    last_event_date: iso(state.events.at(-1)?.at),
    verify_status: state.status,
    sms_event_count: state.events.filter((e) => e.type === 'sms').length,
    tts_event_count: state.events.filter((e) => e.type === 'tts').length,
    currency: CURRENCY,
    pricing_model: PRICING_MODEL,
    price: formatAmount(chargedPrice(state)),
    estimated_price: formatAmount(messagesPrice(facts, state)),
  };
}
