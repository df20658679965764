import type { Amount } from '@comms/core';
import { type CallerIdentity, type LookupResult, lookupNumber } from '@comms/network';
import type { LookupParams } from './params';
import type { Level, Quote } from './pricing';
import { type InsightStatus, insightError, STATUS } from './status';

/** What the number directory knows about a number that it could read. */
export type NumberInfo = Extract<LookupResult, { ok: true }>;

/** The deprecated `ip` check of an advanced lookup. */
export interface IpMatch {
  ip: string;
  matchLevel: 'Country Level' | 'Mismatch';
  /** Alpha-2, or `unknown` when the sandbox cannot place the address. */
  country: string;
}

/** One answered lookup: everything any representation of it (JSON, XML, callback, record) shows. */
export interface Insight {
  level: Level;
  /** Also the ledger id of the lookup's usage record. */
  requestId: string;
  status: InsightStatus;
  info: NumberInfo;
  /** Caller-name data, when `cnam` was asked for at standard or advanced level and exists (US). */
  caller: CallerIdentity | null;
  quote: Quote;
  /** The account's balance after the charge. */
  balance: Amount;
  /** Present when an advanced lookup was given `ip`. */
  ip?: IpMatch;
}

/** Caller names exist for US numbers only (spec 4.4), though the network also knows Canada's. */
const CNAM_COUNTRY = 'US';

/** What a caller-name lookup of a US number that has no owner on record reports. */
const UNKNOWN_CALLER: CallerIdentity = { type: 'unknown', name: 'unknown', firstName: '', lastName: '' };

/**
 * The number as the directory reads it. A number no numbering plan can read is status 999; a
 * `country` that contradicts an international number's own is an invalid parameter, status 3.
 *
 * @example
 * findNumber({ number: '020 7946 0000', country: 'GB', cnam: false }).msisdn // '442079460000'
 */
export function findNumber(params: LookupParams): NumberInfo {
  const result = lookupNumber(params.number, params.country);
  if (result.ok) return result;
  if (result.reason === 'country-mismatch') {
    throw insightError(
      STATUS.invalid,
      `Invalid parameters: country: ${params.country} is not the country of the number`,
    );
  }
  // `country` itself was validated already, so an unknown country here is the number's own.
  throw insightError(STATUS.unparsable, `Request unparseable: '${params.number}' is not a phone number`);
}

/**
 * Statuses 43, 44 and 45 of an advanced lookup whose live part came back incomplete: 43 when it
 * answered nothing about the number's current state (partial), 44 when it could only infer that the
 * number does not exist, 45 when it failed. Basic and standard make no live lookup.
 *
 * @example
 * liveLookupStatus(info, 'advanced') // 45 for +44 7700 900108
 */
export function liveLookupStatus(info: NumberInfo, level: Level): InsightStatus {
  if (level !== 'advanced') return STATUS.success;
  if (info.lookupOutcome === 'failed') return STATUS.liveLookupFailed;
  if (info.lookupOutcome === 'partial') {
    return info.validity === 'inferred_not_valid' ? STATUS.liveLookupInferred : STATUS.liveLookupUnknown;
  }
  return STATUS.success;
}

/** Whether a caller-name lookup can answer for this number (and so is charged). */
export function cnamAvailable(info: NumberInfo): boolean {
  return info.country.code === CNAM_COUNTRY;
}

/**
 * The caller data a lookup shows: none unless `cnam` was asked for at standard or advanced level and
 * the number is a US one; `unknown` for a US number nobody is on record for.
 */
export function callerOf(info: NumberInfo, level: Level, cnam: boolean): CallerIdentity | null {
  if (!cnam || level === 'basic' || !cnamAvailable(info)) return null;
  return info.callerIdentity ?? UNKNOWN_CALLER;
}

/**
 * IPv4 documentation ranges (RFC 5737). The sandbox has no geolocation data, so these stand for an
 * address in the number's own country; any other address cannot be placed and is a mismatch.
 */
const SAME_COUNTRY_RANGES = ['192.0.2.', '198.51.100.', '203.0.113.'];

/**
 * The deprecated `ip` check: `Country Level` with the number's country for an address in an RFC 5737
 * documentation range, else `Mismatch` with country `unknown`.
 *
 * @example
 * ipMatch('203.0.113.7', info) // { ip: '203.0.113.7', matchLevel: 'Country Level', country: 'GB' }
 * ipMatch('8.8.8.8', info) // { ip: '8.8.8.8', matchLevel: 'Mismatch', country: 'unknown' }
 */
export function ipMatch(ip: string, info: NumberInfo): IpMatch {
  return SAME_COUNTRY_RANGES.some((range) => ip.startsWith(range))
    ? { ip, matchLevel: 'Country Level', country: info.country.code }
    : { ip, matchLevel: 'Mismatch', country: 'unknown' };
}
