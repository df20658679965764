import { formatAmount, type JsonObject } from '@comms/core';
import type { Insight } from './insight';
import { STATUS_TEXT } from './status';

/**
 * The usage record of a lookup, with the fields of the reports API's NUMBER-INSIGHT records
 * (reference `csv_ni`). `product_type` is the level in upper case (`BASIC`, `STANDARD`, `ADVANCED`);
 * fields a level does not look up are null. `number`, `first_name` and `last_name` are personal data,
 * which redaction scrubs.
 *
 * @example
 * usageRecord(insight, 'abcd1234', new Date()) // { account_id: 'abcd1234', product_type: 'STANDARD', number: '12015550123', … }
 */
export function usageRecord(r: Omit<Insight, 'balance'>, apiKey: string, received: Date): JsonObject {
  const beyondBasic = r.level !== 'basic';
  const advanced = r.level === 'advanced';
  const carrier = beyondBasic ? (r.info.currentCarrier ?? r.info.originalCarrier) : null;
  return {
    account_id: apiKey,
    request_id: r.requestId,
    product_type: r.level.toUpperCase(),
    number: r.info.msisdn,
    date_received: received.toISOString(),
    status: STATUS_TEXT[r.status],
    response_code: String(r.status),
    network: carrier?.networkCode ?? null,
    network_name: carrier?.name ?? null,
    network_type: carrier?.networkType ?? null,
    country: r.info.country.code,
    country_name: r.info.country.name,
    valid: advanced ? r.info.validity : null,
    ported: beyondBasic ? r.info.ported : null,
    reachable: advanced ? r.info.reachable : null,
    first_name: r.caller?.firstName ?? null,
    last_name: r.caller?.lastName ?? null,
    currency: 'EUR',
    total_price: formatAmount(r.quote.charge),
  };
}
