/**
 * The representations of a lookup: the JSON body (also the asynchronous callback's), the XML body and
 * the asynchronous acknowledgement. Each field is computed once, in a view shared by JSON and XML; the
 * XML functions only arrange the views as the reference's elements and attributes.
 */
import { formatAmount, type JsonObject, type JsonValue } from '@comms/core';
import type { CallerIdentity, Carrier, LookupOutcome, Roaming } from '@comms/network';
import type { Insight, NumberInfo } from './insight';
import { STATUS, STATUS_TEXT, statusTextField } from './status';

const LOOKUP_OUTCOME: Readonly<Record<LookupOutcome, { code: number; message: string }>> = {
  success: { code: 0, message: 'Success' },
  partial: { code: 1, message: 'Partial success - some fields populated' },
  failed: { code: 2, message: 'Failed' },
};

/** The number's formats and country, common to every level. */
function numberView(info: NumberInfo) {
  return {
    international_format_number: info.msisdn,
    national_format_number: info.national,
    country_code: info.country.code,
    country_code_iso3: info.country.alpha3,
    country_name: info.country.name,
    country_prefix: info.country.prefix,
  };
}

/** Prices as the reference writes them: EUR strings with 8 decimals ("0.03000000"). */
function pricesView(r: Insight) {
  return {
    request_price: formatAmount(r.quote.charge),
    refund_price: formatAmount(r.quote.refund),
    remaining_balance: formatAmount(r.balance),
  };
}

/**
 * A carrier, or what is known without one: the fields stay (clients read them without a null check)
 * and the unknown ones are null, with the number's own country and line type.
 */
function carrierView(carrier: Carrier | null, info: NumberInfo) {
  return carrier
    ? {
        network_code: carrier.networkCode,
        name: carrier.name,
        country: carrier.country,
        network_type: carrier.networkType,
      }
    : { network_code: null, name: null, country: info.country.code, network_type: info.lineType };
}

function callerView(caller: CallerIdentity) {
  return {
    caller_type: caller.type,
    caller_name: caller.name,
    first_name: caller.firstName,
    last_name: caller.lastName,
  };
}

/** The spec's plain string `unknown` when roaming is unknown, else the object. */
function roamingView(roaming: Roaming): JsonObject | 'unknown' {
  if (roaming.status === 'unknown') return 'unknown';
  return {
    status: roaming.status,
    ...(roaming.countryCode !== undefined ? { roaming_country_code: roaming.countryCode } : {}),
    ...(roaming.networkCode !== undefined ? { roaming_network_code: roaming.networkCode } : {}),
    ...(roaming.networkName !== undefined ? { roaming_network_name: roaming.networkName } : {}),
  };
}

/** The advanced level's live data; `ip_match_level` and `ip_country` only when `ip` was given. */
function liveView(r: Insight) {
  return {
    lookup_outcome: LOOKUP_OUTCOME[r.info.lookupOutcome].code,
    lookup_outcome_message: LOOKUP_OUTCOME[r.info.lookupOutcome].message,
    valid_number: r.info.validity,
    reachable: r.info.reachable,
    roaming: roamingView(r.info.roaming),
    ip_warnings: r.ip ? 'no_warning' : 'unknown',
    ...(r.ip ? { ip: r.ip.ip, ip_match_level: r.ip.matchLevel, ip_country: r.ip.country } : {}),
  };
}

function statusText(r: Insight): string {
  return STATUS_TEXT[r.status];
}

/**
 * The JSON body of a lookup (spec 2.6), also posted to an asynchronous lookup's callback. Caller
 * fields appear, in `caller_identity` and repeated at top level, only when caller data was asked for.
 *
 * @example
 * insightJson(insight) // { status: 0, status_message: 'Success', request_id: '…', international_format_number: '447700900123', … }
 */
export function insightJson(r: Insight): JsonObject {
  const body: JsonObject = {
    status: r.status,
    [statusTextField(r.status)]: statusText(r),
    request_id: r.requestId,
    ...numberView(r.info),
  };
  if (r.level === 'basic') return body;
  Object.assign(body, pricesView(r), {
    current_carrier: carrierView(r.info.currentCarrier, r.info),
    original_carrier: carrierView(r.info.originalCarrier, r.info),
    ported: r.info.ported,
  });
  if (r.caller) {
    const caller = callerView(r.caller);
    Object.assign(body, { caller_identity: caller, ...caller });
  }
  if (r.level === 'advanced') Object.assign(body, liveView(r));
  return body;
}

/** Object fields as XML attributes (`@name`), the unknown (null) ones left out. */
function attributes(fields: Record<string, JsonValue>, rename: (key: string) => string = (k) => k) {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== null) out[`@${rename(key)}`] = String(value);
  }
  return out;
}

/** Caller attributes are hyphenated in XML (`caller-type`, `first-name`). */
const hyphenated = (key: string) => key.replace(/_/g, '-');

/** The caller elements of the reference, whose first-name element is spelled `firs_name`. */
function callerElements(caller: CallerIdentity): JsonObject {
  const view = callerView(caller);
  return {
    caller_name: view.caller_name,
    last_name: view.last_name,
    firs_name: view.first_name,
    caller_type: view.caller_type,
  };
}

/**
 * The XML body of a lookup, in the reference's shape: `request_id`, `international_format_number`,
 * `local_number` (national format, country attributes) and `error` (`code` attribute, status text);
 * then for standard the prices, the carriers as attributes, `ported` and `caller_identity` (hyphenated
 * attributes with the caller elements inside); for advanced `caller_identity` holds the attributes
 * only and the caller elements follow at top level, then the live data.
 */
export function insightXml(r: Insight): JsonObject {
  const n = numberView(r.info);
  const body: JsonObject = {
    request_id: r.requestId,
    international_format_number: n.international_format_number,
    local_number: {
      ...attributes({
        country_code: n.country_code,
        country_code_iso3: n.country_code_iso3,
        country_name: n.country_name,
        country_prefix: n.country_prefix,
      }),
      '#text': n.national_format_number,
    },
    error: { '@code': String(r.status), '#text': statusText(r) },
  };
  if (r.level === 'basic') return body;
  Object.assign(body, pricesView(r), {
    current_carrier: attributes(carrierView(r.info.currentCarrier, r.info)),
    original_carrier: attributes(carrierView(r.info.originalCarrier, r.info)),
    ported: r.info.ported,
  });
  const callerAttributes = r.caller ? attributes(callerView(r.caller), hyphenated) : undefined;
  if (r.level === 'standard') {
    if (r.caller) body['caller_identity'] = { ...callerAttributes, ...callerElements(r.caller) };
    return body;
  }
  if (r.caller) Object.assign(body, { caller_identity: callerAttributes! }, callerElements(r.caller));
  const live = liveView(r);
  const roaming = live.roaming;
  Object.assign(body, {
    lookup_outcome: { '@code': String(live.lookup_outcome), '#text': live.lookup_outcome_message },
    reachable: live.reachable,
    roaming: typeof roaming === 'string' ? roaming : attributes(roaming),
    valid_number: live.valid_number,
    ip_warnings: live.ip_warnings,
    ...(live.ip ? { ip: live.ip, ip_match_level: live.ip_match_level, ip_country: live.ip_country } : {}),
  });
  return body;
}

/** The acknowledgement of an asynchronous lookup (spec 2.6), whose text field is `error_text`. */
export function asyncAckJson(r: Insight, number: string): JsonObject {
  return {
    request_id: r.requestId,
    number,
    remaining_balance: formatAmount(r.balance),
    request_price: formatAmount(r.quote.charge),
    status: STATUS.success,
    error_text: STATUS_TEXT[STATUS.success],
  };
}

/** The acknowledgement in XML, with the reference's camel-case element names. */
export function asyncAckXml(r: Insight, number: string): JsonObject {
  const ack = asyncAckJson(r, number);
  return {
    requestId: ack['request_id']!,
    number: ack['number']!,
    remainingBalance: ack['remaining_balance']!,
    requestPrice: ack['request_price']!,
    status: ack['status']!,
    error_text: ack['error_text']!,
  };
}
