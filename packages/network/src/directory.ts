import {
  type CountryCode,
  Metadata,
  type PhoneNumber,
  type PhoneNumberType,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import { type CallerIdentity, callerIdentityOf, UNKNOWN_CALLER } from './caller-names';
import { type Country, countryByCode } from './countries';
import { type MagicBehaviour, magicBehaviour, magicBlockOf } from './magic';
import { type Network, networksOf } from './networks';
import { mobilePool, pickNetwork, stableHash } from './operators';

export type { CallerIdentity } from './caller-names';

/** The kinds of line Number Insight reports (`network_type`). */
export type LineType =
  | 'mobile'
  | 'landline'
  | 'landline_premium'
  | 'landline_tollfree'
  | 'virtual'
  | 'pager'
  | 'unknown';

/** A network a number belongs or belonged to (`original_carrier`, `current_carrier`). */
export interface Carrier {
  /** MCC+MNC for mobile networks ('23415'); '<country>-FIXED' for the synthetic landline network. */
  networkCode: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  networkType: LineType;
}

export type Ported = 'not_ported' | 'ported' | 'unknown' | 'assumed_not_ported' | 'assumed_ported';

export type Reachability =
  | 'reachable'
  | 'undeliverable'
  | 'absent'
  | 'bad_number'
  | 'blacklisted'
  | 'unknown';

export type Validity = 'valid' | 'not_valid' | 'inferred_not_valid' | 'unknown';

export interface Roaming {
  status: 'not_roaming' | 'roaming' | 'unknown';
  /** Alpha-2 of the country the number is roaming in; only when roaming. */
  countryCode?: string;
  networkCode?: string;
  networkName?: string;
}

/** Number Insight's `lookup_outcome`: 0 success, 1 partial success, 2 failed. */
export type LookupOutcome = 'success' | 'partial' | 'failed';

/** Everything the simulated network knows about a number. */
export interface NumberInfo {
  /** The text as given. */
  input: string;
  /** E.164 digits without '+' ('447700900123'). */
  msisdn: string;
  /** Assigned in its country's numbering plan (magic numbers count as valid unless they say otherwise). */
  valid: boolean;
  /** Has a length some number of that country can have. */
  possible: boolean;
  /** '+44 7700 900123' */
  international: string;
  /** '07700 900123' */
  national: string;
  country: { code: string; alpha3: string; name: string; prefix: string };
  lineType: LineType;
  originalCarrier: Carrier | null;
  currentCarrier: Carrier | null;
  ported: Ported;
  /** Number Insight calls this mobile-only: 'unknown' for every other line type. */
  reachable: Reachability;
  validity: Validity;
  roaming: Roaming;
  /** Caller-name data, for valid US and Canadian numbers only. */
  callerIdentity: CallerIdentity | null;
  lookupOutcome: LookupOutcome;
  /** The magic behaviour that produced this answer, or null for an ordinary number. */
  magic: MagicBehaviour | null;
}

export type ParseFailure = { ok: false; reason: 'unparsable' | 'country-mismatch' | 'unknown-country' };

export type LookupResult = ({ ok: true } & NumberInfo) | ParseFailure;

/**
 * libphonenumber's types mapped to Number Insight's. FIXED_LINE_OR_MOBILE, which is every NANP number
 * and most numbers of a few other countries (CN, AR, ...), counts as mobile: the plan cannot tell, and a
 * developer texting a US number in the sandbox expects a phone that receives SMS. SHARED_COST, UAN,
 * PERSONAL_NUMBER and VOICEMAIL have no Number Insight counterpart and are 'unknown'.
 */
const LINE_TYPES: Readonly<Partial<Record<PhoneNumberType, LineType>>> = {
  MOBILE: 'mobile',
  FIXED_LINE_OR_MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  PREMIUM_RATE: 'landline_premium',
  TOLL_FREE: 'landline_tollfree',
  VOIP: 'virtual',
  PAGER: 'pager',
};

/**
 * Number Insight's line type for a libphonenumber number type.
 *
 * @example
 * lineTypeOf('FIXED_LINE_OR_MOBILE') // 'mobile'
 * lineTypeOf('SHARED_COST') // 'unknown'
 * lineTypeOf(undefined) // 'unknown'
 */
export function lineTypeOf(type: PhoneNumberType | undefined): LineType {
  return (type && LINE_TYPES[type]) || 'unknown';
}

/** Per-thousand share of ordinary valid mobile numbers that have moved network. */
const PORTED_PER_MILLE = 80;

/** Caller-name (CNAM) data exists only in the North American plan's two big countries. */
const CNAM_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA']);

/** E.164 allows 15 digits; the extra two leave room for a trunk '0' in national input. */
const MAX_INPUT_DIGITS = 17;
const MAX_E164_DIGITS = 15;

let metadata: { getCountryCodesForCallingCode(code: string): string[] | undefined } | undefined;

/**
 * The main country of a calling code ('44' -> 'GB', '1' -> 'US'), for numbers libphonenumber cannot
 * place because they are invalid. The method exists at runtime but is missing from the package's types.
 */
function mainCountryOf(callingCode: string): string | undefined {
  metadata ??= new Metadata() as unknown as NonNullable<typeof metadata>;
  return metadata.getCountryCodesForCallingCode(callingCode)?.[0];
}

/** Strips the separators people type; undefined if anything but digits is left. */
function normalise(input: string): { digits: string; international: boolean } | undefined {
  if (input.length > 64) return undefined;
  const compact = input.replace(/[\s\-().]/g, '');
  const international = compact.startsWith('+') || compact.startsWith('00');
  const digits = compact.startsWith('+') ? compact.slice(1) : international ? compact.slice(2) : compact;
  if (!/^\d+$/.test(digits) || digits.length > MAX_INPUT_DIGITS) return undefined;
  return { digits, international };
}

function parseInternational(digits: string): PhoneNumber | undefined {
  return parsePhoneNumberFromString(`+${digits}`, { extract: false });
}

/**
 * Digits without '+' given with a country: international if they read as a valid (or magic) number of
 * that country, else national. A national reading that libphonenumber refuses falls back to the
 * international one when it at least has the country's calling code.
 */
function parseWithCountry(digits: string, country: Country): PhoneNumber | undefined {
  const asInternational = digits.startsWith(country.dialingPrefix) ? parseInternational(digits) : undefined;
  if (asInternational) {
    const block = magicBlockOf(digits);
    if (
      block
        ? block.country === country.code
        : asInternational.isValid() && asInternational.country === country.code
    ) {
      return asInternational;
    }
  }
  return (
    parsePhoneNumberFromString(digits, { defaultCountry: country.code as CountryCode, extract: false }) ??
    asInternational
  );
}

function resolveCountry(parsed: PhoneNumber, msisdn: string, hint: Country | undefined): Country | undefined {
  const magicCountry = magicBlockOf(msisdn)?.country;
  if (magicCountry) return countryByCode(magicCountry);
  if (parsed.country) return countryByCode(parsed.country);
  if (hint && hint.dialingPrefix === parsed.countryCallingCode) return hint;
  const main = mainCountryOf(parsed.countryCallingCode);
  return main ? countryByCode(main) : undefined;
}

const landlines = new Map<string, Network | undefined>();

function landlineOf(country: string): Network | undefined {
  if (!landlines.has(country)) {
    landlines.set(
      country,
      networksOf(country).find((n) => n.type === 'landline'),
    );
  }
  return landlines.get(country);
}

function carrierOf(network: Network, networkType: LineType): Carrier {
  return {
    networkCode: network.networkCode,
    name: network.networkName,
    country: network.country,
    networkType,
  };
}

/**
 * The digits that decide a mobile number's original network: numbers are handed to networks in blocks,
 * so neighbours share a carrier. NANP: the area code and exchange (NPA-NXX); elsewhere the first four
 * national digits.
 */
function prefixBlock(parsed: PhoneNumber): string {
  return parsed.nationalNumber.slice(0, parsed.countryCallingCode === '1' ? 6 : 4);
}

/** A network of the same country under another name (EE 23430 -> 23433 is not a move). */
function portedTo(country: string, original: Network, msisdn: string): Network | undefined {
  const others = mobilePool(country).filter((w) => w.network.networkName !== original.networkName);
  return pickNetwork(others, `port-to:${msisdn}`);
}

function roamingIn(country: string, msisdn: string): Roaming {
  const network = pickNetwork(mobilePool(country), `roam:${msisdn}`);
  return network
    ? {
        status: 'roaming',
        countryCode: country,
        networkCode: network.networkCode,
        networkName: network.networkName,
      }
    : { status: 'roaming', countryCode: country };
}

type Answer = Omit<NumberInfo, 'input' | 'msisdn' | 'possible' | 'international' | 'national' | 'country'>;

function invalidAnswer(magic: MagicBehaviour | null): Answer {
  return {
    valid: false,
    lineType: 'unknown',
    originalCarrier: null,
    currentCarrier: null,
    ported: 'unknown',
    reachable: 'bad_number',
    validity: 'not_valid',
    roaming: { status: 'unknown' },
    callerIdentity: null,
    // The lookup did answer: the number does not exist.
    lookupOutcome: 'success',
    magic,
  };
}

/**
 * Toll-free, premium, VoIP, pager and unclassified numbers are put on the country's synthetic landline
 * network, with the number's own type as the carrier's network type: the data has no such operators.
 */
function fixedAnswer(country: Country, msisdn: string, lineType: LineType): Answer {
  const landline = landlineOf(country.code);
  const carrier = landline ? carrierOf(landline, lineType) : null;
  const business = lineType === 'landline_tollfree' || lineType === 'landline_premium';
  return {
    valid: true,
    lineType,
    originalCarrier: carrier,
    currentCarrier: carrier,
    ported: carrier ? 'assumed_not_ported' : 'unknown',
    reachable: 'unknown',
    validity: 'valid',
    roaming: { status: 'unknown' },
    callerIdentity: CNAM_COUNTRIES.has(country.code)
      ? callerIdentityOf(msisdn, { alwaysBusiness: business })
      : null,
    lookupOutcome: 'success',
    magic: null,
  };
}

function mobileAnswer(
  country: Country,
  msisdn: string,
  parsed: PhoneNumber,
  magic: MagicBehaviour | null,
): Answer {
  const network = pickNetwork(mobilePool(country.code), `orig:${country.code}:${prefixBlock(parsed)}`);
  const original = network ? carrierOf(network, 'mobile') : null;
  const cnam = CNAM_COUNTRIES.has(country.code);
  const answer: Answer = {
    valid: true,
    lineType: 'mobile',
    originalCarrier: original,
    currentCarrier: original,
    ported: 'not_ported',
    reachable: 'reachable',
    validity: 'valid',
    roaming: { status: 'not_roaming' },
    callerIdentity: cnam ? callerIdentityOf(msisdn) : null,
    lookupOutcome: 'success',
    magic,
  };
  if (!network) {
    // No mobile network in the data (Vatican, a few territories): still a phone, but nobody to name.
    return { ...answer, ported: 'unknown', lookupOutcome: 'partial' };
  }
  const movedTo =
    magic?.kind === 'ported' || (magic === null && stableHash(`port:${msisdn}`) % 1000 < PORTED_PER_MILLE)
      ? portedTo(country.code, network, msisdn)
      : undefined;
  if (movedTo) {
    answer.currentCarrier = carrierOf(movedTo, 'mobile');
    answer.ported = 'ported';
  }
  const unknownLive: Partial<Answer> = {
    currentCarrier: null,
    ported: 'unknown',
    reachable: 'unknown',
    roaming: { status: 'unknown' },
    callerIdentity: cnam ? UNKNOWN_CALLER : null,
    lookupOutcome: 'partial',
  };
  switch (magic?.kind) {
    case 'roaming':
      return { ...answer, roaming: roamingIn(magic.country, msisdn) };
    case 'absent':
      return { ...answer, reachable: 'absent' };
    case 'barred':
      return { ...answer, reachable: 'blacklisted' };
    case 'undeliverable':
      return { ...answer, reachable: 'undeliverable' };
    case 'unknown':
      return { ...answer, ...unknownLive, validity: 'unknown' };
    case 'inferred_not_valid':
      return { ...answer, ...unknownLive, validity: 'inferred_not_valid' };
    case 'lookup_failed':
      return {
        ...answer,
        ...unknownLive,
        originalCarrier: null,
        validity: 'unknown',
        lookupOutcome: 'failed',
      };
    default:
      // ordinary, ported (handled above) and kinds added later for SMS and calls.
      return answer;
  }
}

/**
 * Looks a number up in the simulated network, as Number Insight and message routing see it.
 *
 * The number may be international ('+44 7700 900123', '0044 7700-900123', '447700900123') or national
 * with `country` ('07700 900123', 'GB'); spaces, '-', '.', '(' and ')' are ignored. Digits without '+'
 * or '00' are international unless `country` is given and they do not read as a valid number of that
 * country, in which case they are national. `country` (alpha-2, any case) must match an international
 * number's country, else 'country-mismatch'.
 *
 * Answers are deterministic, derived from the number alone: a valid mobile's original network is drawn
 * (weighted by operator share, see `mobilePool`) from its prefix block, 8% are ported to another
 * network of the country, all are reachable and at home. Landlines and other fixed types are on the
 * country's '<CC>-FIXED' network, `assumed_not_ported`, reachability `unknown`. Invalid numbers keep
 * country and formats but have no carrier and are `bad_number`. Magic numbers (`MAGIC_BLOCKS`) override
 * all this.
 *
 * @example
 * const info = lookupNumber('+44 7700 900102');
 * info.ok && info.reachable // 'absent' (magic suffix 102)
 * lookupNumber('020 7946 0000', 'GB') // { ok: true, msisdn: '442079460000', lineType: 'landline', ... }
 * lookupNumber('+33 6 12 34 56 78', 'GB') // { ok: false, reason: 'country-mismatch' }
 * lookupNumber('call me') // { ok: false, reason: 'unparsable' }
 */
export function lookupNumber(number: string, country?: string): LookupResult {
  const key = `${country ?? ''}\u0000${number}`;
  const known = LOOKUPS.get(key);
  if (known) return known;
  const result = lookupUncached(number, country);
  // The answer depends on nothing but the arguments: repeat lookups (the hot paths of SMS and
  // insight send to the same numbers) skip the parse. Oldest out first past the bound.
  if (LOOKUPS.size >= LOOKUP_CACHE_SIZE) LOOKUPS.delete(LOOKUPS.keys().next().value!);
  LOOKUPS.set(key, result);
  return result;
}

/** Recent lookups, shared by every caller in the isolate; callers must not change what they get. */
const LOOKUPS = new Map<string, LookupResult>();
const LOOKUP_CACHE_SIZE = 4096;

function lookupUncached(number: string, country?: string): LookupResult {
  let hint: Country | undefined;
  if (country !== undefined && country.trim() !== '') {
    hint = countryByCode(country);
    if (!hint) return { ok: false, reason: 'unknown-country' };
  }
  const normalised = typeof number === 'string' ? normalise(number) : undefined;
  if (!normalised) return { ok: false, reason: 'unparsable' };
  const { digits, international } = normalised;
  const parsed = international || !hint ? parseInternational(digits) : parseWithCountry(digits, hint);
  if (!parsed || parsed.number.length - 1 > MAX_E164_DIGITS) return { ok: false, reason: 'unparsable' };
  const msisdn = parsed.number.slice(1);
  const home = resolveCountry(parsed, msisdn, hint);
  if (!home) return { ok: false, reason: 'unknown-country' };
  if (hint && international && home.code !== hint.code) return { ok: false, reason: 'country-mismatch' };

  const magic = magicBehaviour(msisdn);
  const valid = magic ? magic.kind !== 'bad_number' : parsed.isValid();
  const lineType = magic ? 'mobile' : lineTypeOf(parsed.getType());
  const answer = !valid
    ? invalidAnswer(magic)
    : lineType === 'mobile'
      ? mobileAnswer(home, msisdn, parsed, magic)
      : fixedAnswer(home, msisdn, lineType);
  return {
    ok: true,
    input: number,
    msisdn,
    possible: magic ? true : parsed.isPossible(),
    international: parsed.formatInternational(),
    national: parsed.formatNational(),
    country: { code: home.code, alpha3: home.alpha3, name: home.name, prefix: home.dialingPrefix },
    ...answer,
  };
}

/**
 * The E.164 digits (no '+') of a number given as `lookupNumber` accepts it, or null when it cannot be
 * read or no number of its country could have that length.
 *
 * @example
 * e164('+44 (0)7700 900123') // '447700900123'
 * e164('07400 123456', 'GB') // '447400123456'
 * e164('12') // null
 */
export function e164(number: string, country?: string): string | null {
  const result = lookupNumber(number, country);
  return result.ok && (result.valid || result.possible) ? result.msisdn : null;
}
