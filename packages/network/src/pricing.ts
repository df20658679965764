import { type Amount, formatAmount, parseAmount } from '@comms/core';
import { type Country, countries, countriesByDialingPrefix, countryByCode } from './countries';
import { type Network, type NetworkType, networkByCode, networksOf } from './networks';

export type PricingType = 'sms' | 'sms-transit' | 'voice';

const PRICING_TYPES: readonly PricingType[] = ['sms', 'sms-transit', 'voice'];

export type PricedNetwork = Network & { price: Amount };

export interface CountryPricing {
  country: Country;
  currency: 'EUR';
  /** The price when the destination network is not known: the highest network price (see below). */
  defaultPrice: Amount;
  networks: readonly PricedNetwork[];
}

/** The vendor's JSON shape of one country's prices. */
export interface PricingJson {
  countryCode?: string;
  countryName: string;
  countryDisplayName: string;
  currency: 'EUR';
  defaultPrice: string;
  dialingPrefix: string;
  networks: Array<{
    type: NetworkType;
    price: string;
    currency: 'EUR';
    mcc: string;
    mnc: string;
    networkCode: string;
    networkName: string;
  }>;
}

/** Base prices in EUR: SMS per message, voice per minute to mobiles and to landlines. */
interface Rates {
  sms: Amount;
  voiceMobile: Amount;
  voiceLandline: Amount;
}

function rates(sms: string, voiceMobile: string, voiceLandline: string): Rates {
  return {
    sms: parseAmount(sms),
    voiceMobile: parseAmount(voiceMobile),
    voiceLandline: parseAmount(voiceLandline),
  };
}

/**
 * There is no real price list offline, so prices are synthetic but plausible: big markets get explicit
 * rates near public list prices. Landline voice stays below 70% of mobile voice so that even the cheapest
 * mobile network (-25%) costs more than the landline.
 */
const MARKET_RATES: Readonly<Record<string, Rates>> = {
  AE: rates('0.0300', '0.1200', '0.0600'),
  AU: rates('0.0410', '0.0450', '0.0150'),
  BR: rates('0.0300', '0.0500', '0.0200'),
  CA: rates('0.0075', '0.0140', '0.0090'),
  CH: rates('0.0550', '0.1500', '0.0200'),
  CN: rates('0.0350', '0.0250', '0.0150'),
  DE: rates('0.0830', '0.0450', '0.0120'),
  ES: rates('0.0650', '0.0300', '0.0110'),
  FR: rates('0.0700', '0.0380', '0.0110'),
  GB: rates('0.0420', '0.0250', '0.0100'),
  IE: rates('0.0580', '0.0350', '0.0150'),
  IN: rates('0.0060', '0.0150', '0.0100'),
  IT: rates('0.0720', '0.0350', '0.0120'),
  JP: rates('0.0700', '0.0800', '0.0400'),
  MX: rates('0.0250', '0.0250', '0.0100'),
  NG: rates('0.0300', '0.0800', '0.0500'),
  NL: rates('0.0900', '0.0400', '0.0110'),
  NO: rates('0.0520', '0.0300', '0.0120'),
  NZ: rates('0.0850', '0.0600', '0.0200'),
  PL: rates('0.0300', '0.0200', '0.0100'),
  RU: rates('0.0600', '0.0700', '0.0400'),
  SE: rates('0.0480', '0.0250', '0.0100'),
  SG: rates('0.0380', '0.0200', '0.0100'),
  US: rates('0.0075', '0.0140', '0.0090'),
  ZA: rates('0.0190', '0.0600', '0.0250'),
};

/**
 * Other countries start from the rates of their world numbering zone, the first digit of the calling
 * code. The zone is used rather than the MCC's first digit because every country has a calling code,
 * while a few (Vatican, Åland, ...) have no MCC in the data.
 */
const ZONE_RATES: Readonly<Record<string, Rates>> = {
  '1': rates('0.0450', '0.0900', '0.0300'), // NANP outside US/CA: the Caribbean and Pacific territories
  '2': rates('0.0380', '0.1400', '0.0600'), // Africa
  '3': rates('0.0650', '0.0600', '0.0200'), // Europe
  '4': rates('0.0650', '0.0600', '0.0200'), // Europe
  '5': rates('0.0420', '0.0800', '0.0300'), // Latin America
  '6': rates('0.0480', '0.1000', '0.0400'), // South-East Asia and Oceania
  '7': rates('0.0600', '0.0700', '0.0400'), // Russia and Kazakhstan
  '8': rates('0.0450', '0.0700', '0.0300'), // East Asia
  '9': rates('0.0400', '0.0900', '0.0400'), // Middle East, South and Central Asia
};

/** Countries in a zone differ by up to ±20%, and networks in a country by up to ±25%, in basis points. */
const COUNTRY_SPREAD_BP = 2000;
const NETWORK_SPREAD_BP = 2500;
/** SMS transit (messages the customer hands over already routed) costs 10% over plain SMS. */
const TRANSIT_MARKUP_BP = 1000;
/** Prices carry four decimals of EUR, as list prices do; in units of 1e-8 that is a step of 10,000. */
const PRICE_STEP: Amount = 10_000;

/**
 * 32-bit FNV-1a: a stable, dependency-free hash, so the same network always gets the same price on every
 * isolate and deploy.
 *
 * @example
 * fnv1a('23415') === fnv1a('23415') // true
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A factor in basis points in [10000 - spread, 10000 + spread], fixed per key. */
function factorBp(key: string, spread: number): number {
  return 10_000 - spread + (fnv1a(key) % (2 * spread + 1));
}

/** Applies a basis-point factor and rounds half up to four decimals, never below 0.0001 EUR. */
function scale(amount: Amount, bp: number): Amount {
  const steps = Math.round((amount * bp) / (10_000 * PRICE_STEP));
  return Math.max(steps, 1) * PRICE_STEP;
}

function countryRates(country: Country): Rates {
  const market = MARKET_RATES[country.code];
  if (market) return market;
  const zone = ZONE_RATES[country.dialingPrefix[0]!] ?? ZONE_RATES['9']!;
  const bp = factorBp(`country:${country.code}`, COUNTRY_SPREAD_BP);
  return {
    sms: scale(zone.sms, bp),
    voiceMobile: scale(zone.voiceMobile, bp),
    voiceLandline: scale(zone.voiceLandline, bp),
  };
}

/**
 * The price of one network entry, or undefined when the type does not apply: SMS cannot be delivered
 * to landlines, so landline networks have no SMS or SMS-transit price. Mobile prices vary per network
 * code (the key includes the type so SMS and voice rankings differ); the landline is one flat rate.
 */
function priceOfNetwork(type: PricingType, network: Network, base: Rates): Amount | undefined {
  if (type === 'voice') {
    if (network.type === 'landline') return base.voiceLandline;
    return scale(base.voiceMobile, factorBp(`voice:${network.networkCode}`, NETWORK_SPREAD_BP));
  }
  if (network.type === 'landline') return undefined;
  const sms = scale(base.sms, factorBp(`sms:${network.networkCode}`, NETWORK_SPREAD_BP));
  return type === 'sms' ? sms : withTransitMarkup(sms);
}

/** Strictly above the SMS price even where 10% rounds away at four decimals. */
function withTransitMarkup(sms: Amount): Amount {
  return Math.max(scale(sms, 10_000 + TRANSIT_MARKUP_BP), sms + PRICE_STEP);
}

/** The price with no known network, for a country without any priced network (SMS to Vatican numbers). */
function basePrice(type: PricingType, base: Rates): Amount {
  if (type === 'voice') return base.voiceMobile;
  return type === 'sms' ? base.sms : withTransitMarkup(base.sms);
}

function buildCountryPricing(type: PricingType, country: Country): CountryPricing {
  const base = countryRates(country);
  const networks: PricedNetwork[] = [];
  for (const network of networksOf(country.code)) {
    const price = priceOfNetwork(type, network, base);
    if (price !== undefined) networks.push({ ...network, price });
  }
  // The highest network price, not the most common: a message to an unknown network is then never
  // charged less than it may cost.
  const defaultPrice = networks.length ? Math.max(...networks.map((n) => n.price)) : basePrice(type, base);
  return { country, currency: 'EUR', defaultPrice, networks };
}

const tables = new Map<PricingType, Map<string, CountryPricing>>();

/** One table per type, built on first use and kept for the isolate's life. */
function pricingTable(type: PricingType): Map<string, CountryPricing> {
  let table = tables.get(type);
  if (!table) {
    table = new Map(countries().map((c) => [c.code, buildCountryPricing(type, c)]));
    tables.set(type, table);
  }
  return table;
}

/**
 * Whether a string names a pricing type.
 *
 * @example
 * isPricingType('sms-transit') // true
 * isPricingType('mms') // false
 */
export function isPricingType(value: unknown): value is PricingType {
  return typeof value === 'string' && (PRICING_TYPES as readonly string[]).includes(value);
}

/**
 * Prices of one country (case-insensitive alpha-2); undefined for an unknown country. SMS types list
 * mobile networks only; voice lists them and the country's landline. A country without known mobile
 * networks still has an SMS `defaultPrice`, with an empty network list.
 *
 * @example
 * formatAmount(countryPricing('sms', 'GB')!.defaultPrice) // '0.05210000'
 */
export function countryPricing(type: PricingType, countryCode: string): CountryPricing | undefined {
  const country = countryByCode(countryCode);
  return country ? pricingTable(type).get(country.code) : undefined;
}

/**
 * Prices of every country with a calling code, sorted by country code. With 'voice' every country has at
 * least its landline network.
 *
 * @example
 * allCountryPricing('voice').length === countries().length // true
 */
export function allCountryPricing(type: PricingType): readonly CountryPricing[] {
  return [...pricingTable(type).values()];
}

/**
 * Prices of the countries a dialing prefix selects (see `countriesByDialingPrefix`).
 *
 * @example
 * prefixPricing('sms', '1').map((p) => p.country.code) // ['AG', 'AI', ..., 'CA', ..., 'US', ...]
 */
export function prefixPricing(type: PricingType, prefix: string): readonly CountryPricing[] {
  const table = pricingTable(type);
  return countriesByDialingPrefix(prefix).map((c) => table.get(c.code)!);
}

/**
 * The price to one network. Without `countryCode`, a code several territories share is priced for the
 * territory owning its MCC (see `networkByCode`). Undefined for an unknown network, and for SMS to a
 * landline network.
 *
 * @example
 * networkPrice('voice', 'GB-FIXED') // 1000000 (0.0100 EUR a minute)
 * networkPrice('sms', 'GB-FIXED') // undefined
 */
export function networkPrice(
  type: PricingType,
  networkCode: string,
  countryCode?: string,
): Amount | undefined {
  const network = networkByCode(networkCode, countryCode);
  if (!network) return undefined;
  return countryPricing(type, network.country)?.networks.find((n) => n.networkCode === network.networkCode)
    ?.price;
}

/**
 * What to charge for one message or minute to a country: the network's price when the network is
 * known and priced in that country, else the country's default price. Undefined only for an unknown
 * country.
 *
 * @example
 * priceFor('sms', 'GB', '23415') === networkPrice('sms', '23415') // true
 * priceFor('sms', 'GB', 'GB-FIXED') === countryPricing('sms', 'GB')!.defaultPrice // true
 */
export function priceFor(type: PricingType, countryCode: string, networkCode?: string): Amount | undefined {
  const pricing = countryPricing(type, countryCode);
  if (!pricing) return undefined;
  const code = networkCode?.trim().toUpperCase();
  const network = code ? pricing.networks.find((n) => n.networkCode === code) : undefined;
  return network?.price ?? pricing.defaultPrice;
}

/**
 * Shapes a country's prices as the vendor's pricing response object, amounts as 8-decimal strings.
 * `countryCode` is included only with `withCountryCode`, as the endpoints differ on it.
 *
 * @example
 * toPricingJson(countryPricing('sms', 'CA')!, { withCountryCode: true }).networks[0]
 * // { type: 'mobile', price: '0.00750000', currency: 'EUR', mcc: '302', mnc: '100', ... }
 */
export function toPricingJson(pricing: CountryPricing, options: { withCountryCode: boolean }): PricingJson {
  const { country } = pricing;
  return {
    ...(options.withCountryCode ? { countryCode: country.code } : {}),
    countryName: country.name,
    countryDisplayName: country.displayName,
    currency: 'EUR',
    defaultPrice: formatAmount(pricing.defaultPrice),
    dialingPrefix: country.dialingPrefix,
    networks: pricing.networks.map((n) => ({
      type: n.type,
      price: formatAmount(n.price),
      currency: 'EUR',
      mcc: n.mcc,
      mnc: n.mnc,
      networkCode: n.networkCode,
      networkName: n.networkName,
    })),
  };
}
